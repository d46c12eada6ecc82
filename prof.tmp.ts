import { buildTinyModel } from './scripts/models/tinyModel';
import { OnnxModel } from './src/main/engine/embed/onnxModel';
const dir = '/tmp/tiny-model';
buildTinyModel(dir, { dims: 4, row: (id) => [id, 1, -id, 0.5] });
const m = await OnnxModel.load(dir, { threads: 1 });
console.log(m.encode(['Alpha beta', 'gamma'], 'passage'));
const v = await m.embed(['alpha beta', 'gamma', 'unknownword'], 'passage');
console.log(v);

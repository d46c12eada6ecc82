import { OnnxModel } from './src/main/engine/embed/onnxModel';
const m = await OnnxModel.load('/work/shared/models/all-minilm-l6-v2-int8', {}, 2);
const e = m.encode(['This is an example sentence'], 'passage');
console.log(Array.from(e.ids).map(Number));

// npm run bench:ingest — file ingestion speed per format: a few MB of generated files of
// each format (the shapes of test/fixtures/ingest/corpus.ts, scaled up) are ingested
// through ingest.files, one batch per format, the way the daemon does it (vectors filled
// in the background, so this measures walking, parsing in the worker, chunking, the
// secret scan and the per-file transactions). MB/s counts the files' bytes on disk.
// Writes bench-results/ingest.json and prints a Markdown table for the README.
import { mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { cpus, tmpdir, totalmem } from 'node:os';
import { join } from 'node:path';
import { createHandlers, createInProcessClient } from '../../src/main/api';
import { Engine } from '../../src/main/engine/engine';
import type { IngestFormat } from '../../src/shared/api';
import { docx, pdf, prose } from '../../test/fixtures/ingest/corpus';

const FILES = Number(process.env.BENCH_FILES ?? 24);
/** Characters of text per file (≈ 100 KB). */
const TEXT = Number(process.env.BENCH_TEXT ?? 100_000);

const dir = mkdtempSync(join(tmpdir(), 'loci-bench-ingest-'));
const data = join(dir, 'files');

function text(seed: number): string {
  let out = '';
  let i = 0;
  while (out.length < TEXT) out += `${prose(10, seed * 1000 + i++)}\n\n`;
  return out.slice(0, TEXT);
}

const generators: Record<IngestFormat, (i: number) => Promise<[string, string | Uint8Array]>> = {
  markdown: async (i) => {
    const body = text(i)
      .split('\n\n')
      .map((p, k) => (k % 6 === 0 ? `## Part ${k}\n\n${p}` : p))
      .join('\n\n');
    return [`doc${i}.md`, `---\ntags: [bench, n${i}]\n---\n# Document ${i}\n\n${body}`];
  },
  text: async (i) => [`notes${i}.txt`, text(i)],
  code: async (i) => {
    let out = '';
    for (let k = 0; out.length < TEXT; k++)
      out += `/** ${prose(1, k)} */\nexport function f${k}(input: string): string {\n  const v = input.trim();\n  return v + '${k}';\n}\n\n`;
    return [`mod${i}.ts`, out];
  },
  json: async (i) => {
    const items = [];
    for (let k = 0, size = 0; size < TEXT; k++) {
      const item = { id: k, title: `item ${k}`, body: prose(2, i * 7 + k) };
      size += JSON.stringify(item).length;
      items.push(item);
    }
    return [`data${i}.json`, JSON.stringify({ items }, null, 2)];
  },
  jsonl: async (i) => {
    const lines = [];
    for (let k = 0, size = 0; size < TEXT; k++) {
      const line = JSON.stringify({ at: k, event: prose(1, i * 11 + k) });
      size += line.length;
      lines.push(line);
    }
    return [`events${i}.jsonl`, lines.join('\n')];
  },
  csv: async (i) => {
    // A memory per row: at most 1000 rows per file.
    const rows = Array.from(
      { length: 1000 },
      (_, k) => `${k},"${prose(1, i * 13 + k).replace(/"/g, '""')}",${k % 7},eu-${k % 3}`,
    );
    return [`table${i}.csv`, `id,note,level,region\n${rows.join('\n')}\n`];
  },
  html: async (i) => {
    const paras = text(i)
      .split('\n\n')
      .map((p, k) => (k % 6 === 0 ? `<h2>Part ${k}</h2><p>${p}</p>` : `<p>${p}</p>`))
      .join('\n');
    return [
      `page${i}.html`,
      `<!doctype html><html><head><title>Page ${i}</title><script>var x = 1;</script></head><body><h1>Page ${i}</h1>${paras}<div hidden>hidden</div></body></html>`,
    ];
  },
  pdf: async (i) => {
    const pages = text(i).match(/[\s\S]{1,3000}/g) ?? [];
    return [`report${i}.pdf`, await pdf(pages)];
  },
  docx: async (i) => [
    `memo${i}.docx`,
    docx(
      text(i)
        .split('\n\n')
        .map((p, k) => (k % 6 === 0 ? { style: 'Heading2', text: `Part ${k}` } : { text: p })),
    ),
  ],
};

const engine = await Engine.open({ dataDir: join(dir, 'home'), owner: 'bench', env: {} });
const client = createInProcessClient(createHandlers(engine), { actor: { kind: 'cli' } });

// Warm-up (not measured): the parser worker starts and loads its libraries, and the
// first thousand writes pay for statement preparation and compilation (about a second).
const warm = join(data, 'warm-up');
mkdirSync(warm, { recursive: true });
for (let i = 0; i < 8; i++) writeFileSync(join(warm, `w${i}.md`), `# Warm-up\n\n${text(900 + i)}`);
writeFileSync(join(warm, 'w.pdf'), await pdf([prose(5, 98)]));
writeFileSync(join(warm, 'w.docx'), docx([{ text: prose(5, 97) }]));
await client.call('ingest.files', { paths: [warm] });

interface Row {
  format: string;
  files: number;
  mb: number;
  chunks: number;
  seconds: number;
  mb_per_s: number;
  chunks_per_s: number;
}
const rows: Row[] = [];
for (const [format, make] of Object.entries(generators)) {
  const folder = join(data, format);
  mkdirSync(folder, { recursive: true });
  let bytes = 0;
  for (let i = 0; i < FILES; i++) {
    const [name, content] = await make(i);
    writeFileSync(join(folder, name), content);
    bytes += statSync(join(folder, name)).size;
  }
  const t0 = performance.now();
  const r = await client.call('ingest.files', { paths: [folder] });
  const seconds = (performance.now() - t0) / 1000;
  const bad = r.files.filter((f) => f.status !== 'ingested');
  if (bad.length)
    throw new Error(`${format}: ${bad.map((f) => `${f.path}: ${f.reason}`).join('; ')}`);
  const mb = bytes / 1024 / 1024;
  rows.push({
    format,
    files: FILES,
    mb: Math.round(mb * 100) / 100,
    chunks: r.totals.chunks,
    seconds: Math.round(seconds * 100) / 100,
    mb_per_s: Math.round((mb / seconds) * 100) / 100,
    chunks_per_s: Math.round(r.totals.chunks / seconds),
  });
  console.error(`${format}: ${rows.at(-1)?.mb} MB in ${rows.at(-1)?.seconds} s`);
}
await engine.close();
rmSync(dir, { recursive: true, force: true });

const machine = `${cpus()[0]?.model ?? 'unknown CPU'} × ${cpus().length}, ${Math.round(totalmem() / 1024 ** 3)} GiB, Node ${process.version}, ${process.platform}`;
mkdirSync('bench-results', { recursive: true });
writeFileSync(
  'bench-results/ingest.json',
  `${JSON.stringify({ machine, date: new Date().toISOString(), chunk_tokens: 256, rows }, null, 2)}\n`,
);
console.log(`\nmachine: ${machine}`);
console.log('| format | files | MB | chunks | s | MB/s | chunks/s |');
console.log('|---|---:|---:|---:|---:|---:|---:|');
for (const r of rows)
  console.log(
    `| ${r.format} | ${r.files} | ${r.mb} | ${r.chunks} | ${r.seconds} | ${r.mb_per_s} | ${r.chunks_per_s} |`,
  );

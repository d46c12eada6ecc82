// One file's bytes → its chunks and what its document memory says. Pure (no I/O): runs
// in the parser worker, and directly in unit tests.
import { codeFamilyOf } from './detect';
import { chunkBlocks } from './chunker';
import { parseCsvFile, parseJson, parseJsonl } from './parsers/data';
import { parseDocx, parsePdf } from './parsers/documents';
import { parseHtml } from './parsers/html';
import { decodeText, parseCode, parseMarkdown, parseText } from './parsers/text';
import type { Block, Chunk, DocInfo, ParseRequest } from './types';

export async function parseFile(
  req: Omit<ParseRequest, 'id'>,
): Promise<{ info: DocInfo; chunks: Chunk[] }> {
  let parsed: { blocks: Block[]; info: DocInfo };
  let notes: string[] = [];
  if (req.format === 'pdf') parsed = await parsePdf(req.bytes, req.maxInflatedBytes);
  else if (req.format === 'docx') parsed = await parseDocx(req.bytes, req.maxInflatedBytes);
  else {
    const decoded = decodeText(req.bytes);
    notes = decoded.notes;
    const text = decoded.text.replace(/\r\n?/g, '\n');
    switch (req.format) {
      case 'markdown':
        parsed = parseMarkdown(text);
        break;
      case 'code':
        parsed = parseCode(text, codeFamilyOf(req.name));
        break;
      case 'json':
        parsed = parseJson(text, req.chunkChars, req.maxJsonDepth);
        break;
      case 'jsonl':
        parsed = parseJsonl(text, req.maxJsonDepth);
        break;
      case 'csv':
        parsed = parseCsvFile(
          text,
          req.name.toLowerCase().endsWith('.tsv'),
          req.csvRowsPerMemory,
          req.csvSampleRows,
        );
        break;
      case 'html':
        parsed = parseHtml(text);
        break;
      default:
        parsed = parseText(text);
    }
  }
  const chunks = chunkBlocks(parsed.blocks, {
    chunkChars: req.chunkChars,
    overlapChars: req.overlapChars,
    maxChunks: req.maxChunks,
  });
  parsed.info.notes.unshift(...notes);
  return { info: parsed.info, chunks };
}

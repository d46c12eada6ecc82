// PDF (text per page, pdf.js legacy build with eval disabled) and DOCX (mammoth to
// HTML, then the HTML reader) into blocks. Both pass the decompression guards first.
import type { Block, DocInfo } from '../types';
import { ParseRefusal } from '../types';
import { guardPdfStreams, guardZip } from './guards';
import { parseHtml } from './html';
import { emptyInfo, headOf, paragraphs } from './text';

interface TextItemLike {
  str?: string;
  hasEOL?: boolean;
}

export async function parsePdf(
  bytes: Uint8Array,
  maxInflated: number,
): Promise<{ blocks: Block[]; info: DocInfo }> {
  guardPdfStreams(bytes, maxInflated);
  const pdfjs = await import('pdfjs-dist/legacy/build/pdf.mjs');
  const task = pdfjs.getDocument({
    // pdf.js takes ownership of (and detaches) the buffer it is given.
    data: new Uint8Array(bytes),
    isEvalSupported: false,
    disableFontFace: true,
    useSystemFonts: false,
    stopAtErrors: false,
    verbosity: 0,
  });
  let doc;
  try {
    doc = await task.promise;
  } catch (err) {
    const e = err as Error;
    throw new ParseRefusal(
      e.name === 'PasswordException'
        ? 'the PDF is encrypted with a password: not read'
        : `not a readable PDF: ${e.message}`,
    );
  }
  try {
    const info = emptyInfo();
    info.parts.pages = doc.numPages;
    const blocks: Block[] = [];
    const heads: string[] = [];
    for (let p = 1; p <= doc.numPages; p++) {
      let text = '';
      try {
        const page = await doc.getPage(p);
        const content = await page.getTextContent();
        for (const item of content.items as TextItemLike[]) {
          if (typeof item.str !== 'string') continue;
          text += item.str + (item.hasEOL ? '\n' : '');
        }
        page.cleanup();
      } catch (err) {
        info.notes.push(`page ${p} could not be read (${(err as Error).message})`);
        continue;
      }
      text = text.replace(/[ \t]+\n/g, '\n').trim();
      if (!text) continue;
      if (heads.length < 1) heads.push(headOf(text));
      blocks.push(
        ...paragraphs(text, `page ${p}`, 1, true).map(({ lineStart: _a, lineEnd: _b, ...b }) => ({
          ...b,
          page: p,
        })),
      );
    }
    if (blocks.length === 0) {
      info.notes.push('no text layer (a scanned PDF?): only the document memory was written');
    }
    info.head = heads.join('\n');
    return { blocks, info };
  } finally {
    await doc.destroy();
  }
}

export async function parseDocx(
  bytes: Uint8Array,
  maxInflated: number,
): Promise<{ blocks: Block[]; info: DocInfo }> {
  const entries = guardZip(bytes, maxInflated);
  if (!entries.some((e) => e.name === 'word/document.xml')) {
    throw new ParseRefusal('not a readable DOCX: it has no word/document.xml');
  }
  const mammoth = (await import('mammoth')).default;
  let html: string;
  try {
    const result = await mammoth.convertToHtml({ buffer: Buffer.from(bytes) });
    html = result.value;
  } catch (err) {
    throw new ParseRefusal(`not a readable DOCX: ${(err as Error).message}`);
  }
  const { blocks, info } = parseHtml(html);
  return { blocks, info };
}

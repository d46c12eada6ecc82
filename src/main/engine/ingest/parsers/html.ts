// HTML into readable text by section: scripts, styles, templates and anything hidden
// (the `hidden` attribute, aria-hidden, display:none, visibility:hidden) are dropped;
// block elements end paragraphs, headings start sections.
import { Parser } from 'htmlparser2';
import type { Block, DocInfo } from '../types';
import { emptyInfo } from './text';

const DROPPED = new Set([
  'script',
  'style',
  'noscript',
  'template',
  'svg',
  'canvas',
  'iframe',
  'object',
  'embed',
  'head',
  'select',
  'button',
]);

const BLOCK = new Set([
  'p',
  'div',
  'section',
  'article',
  'main',
  'aside',
  'header',
  'footer',
  'nav',
  'li',
  'ul',
  'ol',
  'dl',
  'dt',
  'dd',
  'table',
  'tr',
  'blockquote',
  'pre',
  'figure',
  'figcaption',
  'br',
  'hr',
  'form',
  'fieldset',
  'details',
  'summary',
  'address',
  'h1',
  'h2',
  'h3',
  'h4',
  'h5',
  'h6',
]);

function isHidden(attrs: Record<string, string>, name: string): boolean {
  if ('hidden' in attrs) return true;
  if ((attrs['aria-hidden'] ?? '').toLowerCase() === 'true') return true;
  if (name === 'input' && (attrs.type ?? '').toLowerCase() === 'hidden') return true;
  const style = (attrs.style ?? '').toLowerCase().replace(/\s+/g, '');
  return style.includes('display:none') || style.includes('visibility:hidden');
}

export function parseHtml(html: string): { blocks: Block[]; info: DocInfo; title: string } {
  const info = emptyInfo();
  const blocks: Block[] = [];
  const path: { level: number; title: string }[] = [];
  /** For every open element: does it hide what it holds? */
  const stack: boolean[] = [];
  let hiddenDepth = 0;
  let inTitle = false;
  let title = '';
  let paragraph = '';
  let heading: { level: number; text: string } | null = null;
  let sections = 0;
  let newSection = false;
  const label = () => (path.length ? path.map((p) => p.title).join(' › ') : 'page');
  const flush = () => {
    const text = paragraph
      .replace(/[ \t\f\v\u00a0]+/g, ' ')
      .replace(/ *\n */g, '\n')
      .trim();
    paragraph = '';
    if (!text) return;
    blocks.push({ text, label: label(), ...(newSection ? { section: true } : {}) });
    newSection = false;
  };
  const parser = new Parser(
    {
      onopentag(name, attrs) {
        const hides = DROPPED.has(name) || isHidden(attrs, name);
        stack.push(hides);
        if (hides) hiddenDepth++;
        if (name === 'title') inTitle = true;
        if (hiddenDepth > 0) return;
        if (BLOCK.has(name)) flush();
        if (/^h[1-6]$/.test(name)) heading = { level: Number(name[1]), text: '' };
        if (name === 'td' || name === 'th') paragraph += ' | ';
      },
      ontext(text) {
        if (inTitle) title += text;
        if (hiddenDepth > 0) return;
        if (heading) heading.text += text;
        paragraph += text;
      },
      onclosetag(name) {
        if (name === 'title') inTitle = false;
        const hid = stack.pop();
        if (hid) {
          hiddenDepth--;
          return;
        }
        if (hiddenDepth > 0) return;
        if (heading && name === `h${heading.level}`) {
          const h = heading as { level: number; text: string };
          heading = null;
          paragraph = '';
          while (path.length && (path[path.length - 1] as { level: number }).level >= h.level)
            path.pop();
          const t = h.text.replace(/\s+/g, ' ').trim();
          if (t) {
            path.push({ level: h.level, title: t.slice(0, 80) });
            sections++;
            newSection = true;
            paragraph = t;
            flush();
            newSection = false;
          }
          return;
        }
        if (BLOCK.has(name)) flush();
      },
    },
    { decodeEntities: true, lowerCaseTags: true, lowerCaseAttributeNames: true },
  );
  parser.write(html);
  parser.end();
  flush();
  // The heading block marks the start of its section.
  for (let i = 0; i < blocks.length; i++) {
    const b = blocks[i] as Block;
    if (i > 0 && b.label !== (blocks[i - 1] as Block).label) b.section = true;
  }
  info.parts.sections = sections;
  info.head = blocks
    .slice(0, 4)
    .map((b) => (b.text.length > 160 ? `${b.text.slice(0, 160)}…` : b.text))
    .join('\n');
  title = title.replace(/\s+/g, ' ').trim();
  if (title) info.details.push(`title: ${title.slice(0, 200)}`);
  return { blocks, info, title };
}

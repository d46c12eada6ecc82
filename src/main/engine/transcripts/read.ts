// Reads one transcript file as a stream of lines (a 50 MB session never sits in memory
// whole), detects its format from the first lines that say, and gathers the classed
// turns within the journal's budgets: a turn keeps at most LIMITS.turnMaxChars (a huge
// tool output keeps its head and tail), a journal at most LIMITS.journalMaxTurns turns
// and JOURNAL_MAX_CHARS of text. Every line is accounted for in the result.
import { createReadStream } from 'node:fs';
import { createInterface } from 'node:readline';
import { LIMITS, type TranscriptFormat } from '../../../shared/constants';
import { LociError } from '../../../shared/errors';
import { detectFormat, LINE_READERS, type SessionMeta, type Turn } from './formats';

/** Text one journal keeps in all (characters); past it, lines are counted, not kept. */
export const JOURNAL_MAX_CHARS = 48 * 1024 * 1024;
/** Skipped lines reported one by one (the rest are counted). */
export const SKIPPED_REPORTED = 50;
/** Lines read before the format must be known (else the file is not a transcript). */
const DETECT_LINES = 50;

export interface TranscriptLimits {
  turnMaxChars: number;
  journalMaxTurns: number;
  journalMaxChars: number;
}

export const DEFAULT_TRANSCRIPT_LIMITS: TranscriptLimits = {
  turnMaxChars: LIMITS.turnMaxChars,
  journalMaxTurns: LIMITS.journalMaxTurns,
  journalMaxChars: JOURNAL_MAX_CHARS,
};

export interface ReadTranscript {
  format: TranscriptFormat;
  meta: SessionMeta;
  turns: Turn[];
  /** Lines in the file (blank ones included). */
  lines: number;
  /** Known records without content, by kind (`summary`, `reasoning`, `blank`…). */
  ignored: Record<string, number>;
  skipped: { line: number; reason: string }[];
  skippedTotal: number;
  /** Turns whose text was cut to the per-turn budget. */
  truncated: number;
  /** The first line not kept because the journal's budget was reached, or null. */
  stoppedAt: number | null;
}

/** A long text's head and tail, with what was left out between them said in place. */
export function clip(text: string, max: number): { text: string; clipped: boolean } {
  if (text.length <= max) return { text, clipped: false };
  const keep = Math.floor((max - 64) / 2);
  const omitted = text.length - 2 * keep;
  return {
    text: `${text.slice(0, keep)}\n… [${omitted} characters left out] …\n${text.slice(-keep)}`,
    clipped: true,
  };
}

export async function readTranscript(
  path: string,
  options: {
    format?: TranscriptFormat | undefined;
    limits?: TranscriptLimits;
    /** Bytes read so far, for a progress bar. */
    onProgress?: (bytesRead: number) => void;
  } = {},
): Promise<ReadTranscript> {
  const limits = options.limits ?? DEFAULT_TRANSCRIPT_LIMITS;
  const stream = createReadStream(path, { encoding: 'utf8' });
  const lines = createInterface({ input: stream, crlfDelay: Infinity });
  let format: TranscriptFormat | null = options.format ?? null;
  const pending: { line: number; record: unknown }[] = [];
  const out: ReadTranscript = {
    format: format ?? 'generic',
    meta: {},
    turns: [],
    lines: 0,
    ignored: {},
    skipped: [],
    skippedTotal: 0,
    truncated: 0,
    stoppedAt: null,
  };
  let kept = 0;
  const skip = (line: number, reason: string) => {
    out.skippedTotal++;
    if (out.skipped.length < SKIPPED_REPORTED) out.skipped.push({ line, reason });
  };
  const ignore = (what: string) => {
    out.ignored[what] = (out.ignored[what] ?? 0) + 1;
  };
  const take = (line: number, record: unknown, as: TranscriptFormat) => {
    const r = LINE_READERS[as](record, line);
    if (r.kind === 'skipped') return skip(line, r.reason);
    if (r.meta) {
      out.meta = {
        ...out.meta,
        ...(r.meta.session && !out.meta.session ? { session: r.meta.session } : {}),
        ...(r.meta.cwd && !out.meta.cwd ? { cwd: r.meta.cwd } : {}),
        ...(r.meta.at && !out.meta.at ? { at: r.meta.at } : {}),
      };
    }
    if (r.kind === 'ignored') return ignore(r.what);
    for (const turn of r.turns) {
      if (out.stoppedAt !== null) return;
      const c = clip(turn.text, limits.turnMaxChars);
      if (c.clipped) out.truncated++;
      if (
        out.turns.length >= limits.journalMaxTurns ||
        kept + c.text.length > limits.journalMaxChars
      ) {
        out.stoppedAt = line;
        return;
      }
      kept += c.text.length;
      out.turns.push({ ...turn, text: c.text });
    }
  };

  let n = 0;
  try {
    for await (const raw of lines) {
      n++;
      if (n % 2000 === 0) options.onProgress?.(stream.bytesRead);
      if (out.stoppedAt !== null) continue; // counted in `lines`, reported by stoppedAt
      const text = raw.trim();
      if (!text) {
        ignore('blank');
        continue;
      }
      let record: unknown;
      try {
        record = JSON.parse(text);
      } catch (err) {
        skip(n, `not JSON (${(err as Error).message.slice(0, 80)})`);
        continue;
      }
      if (format === null) {
        format = detectFormat(record);
        if (format === null) {
          pending.push({ line: n, record });
          if (pending.length >= DETECT_LINES) break;
          continue;
        }
        out.format = format;
        for (const p of pending.splice(0)) take(p.line, p.record, format);
      }
      take(n, record, format);
    }
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    throw new LociError(
      code === 'ENOENT' ? 'not-found' : 'invalid-args',
      `Cannot read ${path}: ${(err as Error).message}`,
    );
  } finally {
    lines.close();
    stream.destroy();
  }
  if (format === null) {
    throw new LociError(
      'invalid-args',
      n === 0
        ? `${path} is empty: there is no session in it.`
        : `${path} is not a transcript Loci knows (Claude Code, Codex CLI or the generic JSONL: {"role", "content"} a line); ${out.skippedTotal} of the first ${n} lines are not JSON.`,
    );
  }
  out.lines = n;
  options.onProgress?.(stream.bytesRead);
  return out;
}

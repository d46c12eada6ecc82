// Cheap deterministic text similarity for dreams: word sets and their Jaccard index,
// and the line-wise union used to merge near-duplicates. No model needed.
const STOP = new Set(
  'the a an and or of to in on at for with by from is are was were be been it this that these those as not no but if then than so we you they he she i our your their its into about over under can will would should could has have had do does did'.split(
    ' ',
  ),
);

/** Lowercased words of 2+ letters or digits, stop words dropped. */
export function words(text: string): Set<string> {
  const out = new Set<string>();
  for (const w of text
    .normalize('NFKC')
    .toLowerCase()
    .split(/[^\p{L}\p{N}_]+/u)) {
    if (w.length >= 2 && !STOP.has(w)) out.add(w);
  }
  return out;
}

export function jaccard(a: ReadonlySet<string>, b: ReadonlySet<string>): number {
  if (a.size === 0 && b.size === 0) return 0;
  let inter = 0;
  const [small, large] = a.size <= b.size ? [a, b] : [b, a];
  for (const w of small) if (large.has(w)) inter++;
  return inter / (a.size + b.size - inter);
}

/** The kept text, then the other's lines it lacks (compared without case and spacing). */
export function mergeTexts(keep: string, other: string): string {
  const norm = (l: string) => l.toLowerCase().replace(/\s+/g, ' ').trim();
  const have = new Set(keep.split('\n').map(norm));
  const extra = other.split('\n').filter((l) => norm(l) !== '' && !have.has(norm(l)));
  return extra.length === 0 ? keep : `${keep.trimEnd()}\n${extra.join('\n')}`;
}

export function excerpt(text: string, chars = 240): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length <= chars ? flat : `${flat.slice(0, chars - 1)}…`;
}

/** A readable line diff: `- ` removed, `+ ` added, `  ` kept. */
export function lineDiff(before: string, after: string): string {
  const a = before.split('\n');
  const b = after.split('\n');
  // Longest common subsequence over lines (texts are at most 64 KiB).
  const n = a.length;
  const m = b.length;
  if (n * m > 4_000_000) return `- ${a.join('\n- ')}\n+ ${b.join('\n+ ')}`;
  const dp: number[][] = Array.from({ length: n + 1 }, () => new Array<number>(m + 1).fill(0));
  for (let i = n - 1; i >= 0; i--)
    for (let j = m - 1; j >= 0; j--)
      (dp[i] as number[])[j] =
        a[i] === b[j]
          ? ((dp[i + 1] as number[])[j + 1] as number) + 1
          : Math.max((dp[i + 1] as number[])[j] as number, (dp[i] as number[])[j + 1] as number);
  const out: string[] = [];
  let i = 0;
  let j = 0;
  while (i < n && j < m) {
    if (a[i] === b[j]) {
      out.push(`  ${a[i]}`);
      i++;
      j++;
    } else if (((dp[i + 1] as number[])[j] as number) >= ((dp[i] as number[])[j + 1] as number))
      out.push(`- ${a[i++]}`);
    else out.push(`+ ${b[j++]}`);
  }
  while (i < n) out.push(`- ${a[i++]}`);
  while (j < m) out.push(`+ ${b[j++]}`);
  return out.join('\n');
}

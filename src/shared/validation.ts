// Turning zod issues into one readable line, the same on every surface.
import type { z } from 'zod';

/** `content: too short; unknown field "x"` — the first five problems, joined. */
export function describeIssues(issues: z.core.$ZodIssue[]): string {
  return issues
    .slice(0, 5)
    .map((issue) => {
      const path = issue.path.map(String).join('.');
      const message =
        issue.code === 'unrecognized_keys'
          ? `unknown field${issue.keys.length > 1 ? 's' : ''} ${issue.keys.map((k) => `"${k}"`).join(', ')}`
          : issue.message;
      return path ? `${path}: ${message}` : message;
    })
    .join('; ');
}

// Which memories a recall may consider (DESIGN.md §6): every stage — the recogniser,
// both branches, session neighbours, spreading — applies this one SQL condition on `m`,
// so a LIMIT is never spent on memories the caller may not see.
import type { Actor } from '../../../shared/api';
import { isPerson, parseTime, visibilityFilter } from '../memory/model';
import { conversationFilters, kindAndTagFilters } from '../memory/read';
import type { Filter } from './lexical';
import type { ParsedRecall } from './run';

export function recallFilter(args: ParsedRecall, actor: Actor): Filter {
  const where: string[] = ['m.deleted_at IS NULL'];
  const params: unknown[] = [];
  const vis = visibilityFilter(actor);
  where.push(vis.sql);
  params.push(...vis.params);
  // Agents never see quarantined memories; a person may ask to include them.
  if (!(args.include_quarantined && isPerson(actor))) where.push(`m.trust = 'trusted'`);
  kindAndTagFilters(args, where, params);
  conversationFilters(args, where, params);
  if (args.as_of) {
    const t = parseTime(args.as_of);
    where.push(
      '(m.valid_from IS NULL OR m.valid_from <= ?) AND (m.valid_to IS NULL OR m.valid_to > ?)',
    );
    params.push(t, t);
  } else if (!args.history) {
    // A memory replaced by a live one is history: hidden unless asked for (or asked about a past time).
    where.push(
      `NOT EXISTS (SELECT 1 FROM link sl JOIN memory sm ON sm.rid = sl.src
                    WHERE sl.dst = m.rid AND sl.type = 'supersedes' AND sm.deleted_at IS NULL)`,
    );
  }
  return { sql: where.join(' AND '), params };
}

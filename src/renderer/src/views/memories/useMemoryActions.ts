// What a person can do to one memory or many: pin, tag, forget (with Undo), restore,
// erase and promote. Each runs the engine calls (a few at a time for many memories) and
// says what happened in a toast; failures are counted and explained, never swallowed.
// Callers confirm erase and promote first; this hook does not ask.
import { useMemo } from 'react';
import type { LociError } from '../../../../shared/errors';
import { formatCount } from '../../lib/format';
import { useEngineClient } from '../../lib/engineContext';
import { toLociError } from '../../lib/useEngineQuery';
import { useUiStore, type ToastInput } from '../../stores/uiStore';
import type { SelectedMemory } from './memoriesStore';

export type Target = Pick<SelectedMemory, 'id' | 'title'> &
  Partial<Pick<SelectedMemory, 'version' | 'pinned' | 'deleted'>>;

export interface Outcome {
  ok: string[];
  failed: { id: string; error: LociError }[];
}

/** At most this many calls at once: enough to be quick, few enough to leave room for others. */
const CONCURRENCY = 4;

export async function runAll<T>(
  items: readonly T[],
  id: (item: T) => string,
  fn: (item: T) => Promise<unknown>,
): Promise<Outcome> {
  const outcome: Outcome = { ok: [], failed: [] };
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const item = items[next++] as T;
      try {
        await fn(item);
        outcome.ok.push(id(item));
      } catch (err) {
        outcome.failed.push({ id: id(item), error: toLociError(err) });
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(CONCURRENCY, items.length) }, worker));
  return outcome;
}

const quote = (title: string) => `“${title.length > 60 ? `${title.slice(0, 57)}…` : title}”`;

/** "“Deploys…”" for one, "3 memories" for many. */
export function describeTargets(targets: readonly Pick<Target, 'title'>[]): string {
  const first = targets[0];
  return targets.length === 1 && first ? quote(first.title) : `${targets.length} memories`;
}

function failureMessage(verb: string, outcome: Outcome, total: number): string {
  const first = outcome.failed[0]?.error;
  const conflicts = outcome.failed.filter((f) => f.error.code === 'conflict').length;
  const why =
    conflicts === outcome.failed.length
      ? 'it changed since it was shown; the list has been refreshed'
      : (first?.message ?? 'unknown error');
  return total === 1
    ? `Could not ${verb}: ${why}`
    : `Could not ${verb} ${outcome.failed.length} of ${total}: ${why}`;
}

export function useMemoryActions() {
  const client = useEngineClient();
  const store = useUiStore((s) => s.store);

  return useMemo(() => {
    const at = store ? { store } : {};
    const toast = (input: ToastInput) => useUiStore.getState().toast(input);
    const reportFailures = (verb: string, outcome: Outcome, total: number) => {
      if (outcome.failed.length)
        toast({ message: failureMessage(verb, outcome, total), tone: 'error' });
    };

    async function restore(targets: readonly Target[], quiet = false): Promise<Outcome> {
      const outcome = await runAll(
        targets,
        (t) => t.id,
        (t) => client.call('memory.restore', { ...at, id: t.id }),
      );
      reportFailures('restore', outcome, targets.length);
      if (!quiet && outcome.ok.length)
        toast({
          message: `Restored ${describeTargets(targets.filter((t) => outcome.ok.includes(t.id)))}.`,
          tone: 'success',
        });
      return outcome;
    }

    async function forget(targets: readonly Target[]): Promise<Outcome> {
      const outcome = await runAll(
        targets,
        (t) => t.id,
        (t) => client.call('memory.forget', { ...at, id: t.id }),
      );
      reportFailures('forget', outcome, targets.length);
      const done = targets.filter((t) => outcome.ok.includes(t.id));
      if (done.length)
        toast({
          message: `Forgot ${describeTargets(done)}.`,
          tone: 'success',
          action: {
            label: 'Undo',
            run: async () => {
              const back = await restore(done, true);
              if (back.failed.length) throw back.failed[0]?.error;
              toast({ message: `Restored ${describeTargets(done)}.`, tone: 'success' });
            },
          },
        });
      return outcome;
    }

    async function erase(targets: readonly Target[]): Promise<Outcome> {
      const outcome = await runAll(
        targets,
        (t) => t.id,
        (t) => client.call('memory.erase', { ...at, id: t.id }),
      );
      reportFailures('erase', outcome, targets.length);
      const done = targets.filter((t) => outcome.ok.includes(t.id));
      if (done.length) toast({ message: `Erased ${describeTargets(done)} for good.` });
      return outcome;
    }

    async function setPinned(targets: readonly Target[], pinned: boolean): Promise<Outcome> {
      const todo = targets.filter((t) => t.pinned !== pinned && !t.deleted);
      const outcome = await runAll(
        todo,
        (t) => t.id,
        (t) =>
          client.call('memory.update', {
            ...at,
            id: t.id,
            pinned,
            ...(typeof t.version === 'number' ? { expected_version: t.version } : {}),
          }),
      );
      reportFailures(pinned ? 'pin' : 'unpin', outcome, todo.length);
      const done = todo.filter((t) => outcome.ok.includes(t.id));
      if (done.length)
        toast({
          message: `${pinned ? 'Pinned' : 'Unpinned'} ${describeTargets(done)}.`,
          tone: 'success',
        });
      else if (todo.length === 0)
        toast({
          message: `Nothing to do: ${targets.length === 1 ? 'it is' : 'they are'} ${pinned ? 'pinned' : 'not pinned'} already.`,
        });
      return outcome;
    }

    async function tag(
      targets: readonly Target[],
      add: readonly string[],
      remove: readonly string[] = [],
      quiet = false,
    ): Promise<Outcome> {
      const todo = targets.filter((t) => !t.deleted);
      const outcome = await runAll(
        todo,
        (t) => t.id,
        (t) =>
          client.call('memory.tag', {
            ...at,
            id: t.id,
            ...(add.length ? { add: [...add] } : {}),
            ...(remove.length ? { remove: [...remove] } : {}),
          }),
      );
      reportFailures('change the tags of', outcome, todo.length);
      const done = todo.filter((t) => outcome.ok.includes(t.id));
      if (!quiet && done.length) {
        const what = [
          add.length ? `tagged “${add.join('”, “')}”` : '',
          remove.length ? `removed “${remove.join('”, “')}”` : '',
        ]
          .filter(Boolean)
          .join(' and ');
        toast({ message: `${describeTargets(done)}: ${what}.`, tone: 'success' });
      }
      return outcome;
    }

    async function promote(targets: readonly Target[]): Promise<Outcome> {
      const outcome = await runAll(
        targets,
        (t) => t.id,
        (t) => client.call('memory.promote', { ...at, id: t.id }),
      );
      reportFailures('promote', outcome, targets.length);
      const done = targets.filter((t) => outcome.ok.includes(t.id));
      if (done.length)
        toast({
          message:
            done.length === 1
              ? `${quote(done[0]!.title)} is trusted now: agents can recall it.`
              : `${describeTargets(done)} are trusted now: agents can recall them.`,
          tone: 'success',
        });
      return outcome;
    }

    async function redact(targets: readonly Target[]): Promise<Outcome> {
      let replaced = 0;
      const outcome = await runAll(
        targets,
        (t) => t.id,
        async (t) => {
          const r = await client.call('memory.redact', { ...at, id: t.id });
          replaced += r.redacted.length;
          return r;
        },
      );
      reportFailures('redact', outcome, targets.length);
      const done = targets.filter((t) => outcome.ok.includes(t.id));
      if (done.length)
        toast({
          message: `${replaced === 1 ? 'One credential' : `${formatCount(replaced)} credentials`} replaced by a fingerprint in ${describeTargets(done)}, in every version; agents can recall the rest now.`,
          tone: 'success',
        });
      return outcome;
    }

    return { forget, restore, erase, setPinned, tag, promote, redact };
  }, [client, store]);
}

export type MemoryActions = ReturnType<typeof useMemoryActions>;

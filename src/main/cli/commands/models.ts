// The embedding model commands: models list/install/remove/use, embed and calibrate;
// and the model offer `loci setup` makes while none is installed.
import { type Command } from 'commander';
import { intArg } from '../args';
import type { CommandContext } from '../context';
import * as fmt from '../format';
import { confirm, progressBar } from '../io';

/** Installs a catalogue model with a progress bar (`loci models install`, `loci setup`). */
export async function installModel(ctx: CommandContext, cmd: Command, id: string): Promise<void> {
  const { io, c, connect, call, follow, print } = ctx;
  await connect(cmd);
  const bar = progressBar(io, `${id} {file} [{bar}] {percentage}% {value}/{total} bytes`);
  const off = follow('models.progressed', (p) =>
    bar.update(p.received, p.total ?? p.received, { file: `${p.index}/${p.files} ${p.file}` }),
  );
  try {
    const r = await call(cmd, 'models.install', { id });
    bar.stop();
    print(
      cmd,
      r,
      (m) =>
        `${c.green('Installed')} ${m.id} in ${m.dir ?? '?'}${m.pinned ? '' : c.yellow(' (its hashes were recorded at download: the catalogue pins none yet)')}\nRun \`loci embed\` to embed your memories with it now, or let the daemon do it in the background.\n`,
    );
  } finally {
    off();
    bar.stop();
  }
}

/**
 * While no model is installed, `loci setup` offers the catalogue's default: asked on a
 * terminal (nothing downloads without a yes), a hint line otherwise.
 */
export async function offerModel(ctx: CommandContext, cmd: Command): Promise<void> {
  const { io, call } = ctx;
  const { offer } = await call(cmd, 'models.list', {});
  if (!offer) return;
  const size =
    offer.size_bytes === null
      ? null
      : `${offer.approximate ? 'about ' : ''}${Math.round(offer.size_bytes / 1_000_000)} MB`;
  const facts = [size, `licence ${offer.license}`].filter(Boolean).join(', ');
  io.stdout.write(`\n${offer.reason}\n`);
  if (!io.interactive || !io.stdin.isTTY) {
    io.stdout.write(
      `Recall by meaning: \`loci models install ${offer.id}\` (${offer.name}, ${facts}).\n`,
    );
    return;
  }
  if (
    await confirm(io, `Install ${offer.name} now (${facts}) so recall finds memories by meaning?`)
  ) {
    await installModel(ctx, cmd, offer.id);
  } else {
    io.stdout.write(
      `Not now. Later: \`loci models install ${offer.id}\`, or Settings in the observatory.\n`,
    );
  }
}

export function registerModelCommands(program: Command, ctx: CommandContext): void {
  const { io, c, connect, call, follow, withStore, print } = ctx;
  const models = program
    .command('models')
    .description('embedding models: list, install, remove, use');
  models
    .command('list', { isDefault: true })
    .description('the models Loci can install and the ones it found')
    .action(async (_o, cmd: Command) => {
      print(cmd, await call(cmd, 'models.list', {}), (r) => fmt.formatModels(c, r));
    });
  models
    .command('install')
    .description(
      'download a model from the catalogue (with a sha256 check), then use it if it is the best installed',
    )
    .argument('<id>', 'a model id from `loci models list`')
    .action(async (id: string, _o, cmd: Command) => {
      await installModel(ctx, cmd, id);
    });
  models
    .command('remove')
    .description('delete an installed model')
    .argument('<id>', 'the model id')
    .action(async (id: string, _o, cmd: Command) => {
      print(cmd, await call(cmd, 'models.remove', { id }), () => `${c.green('Removed')} ${id}\n`);
    });
  models
    .command('use')
    .description(
      'choose the model recall uses: an id, "auto" (the best installed) or "none" (the hashing fallback)',
    )
    .argument('<id>', 'a model id, auto or none')
    .action(async (id: string, _o, cmd: Command) => {
      print(
        cmd,
        await call(cmd, 'models.use', { id }),
        (r) =>
          `${fmt.formatModels(c, r)}Memories are re-embedded with the new model by \`loci embed\` (or in the background by the daemon).\n`,
      );
    });

  program
    .command('embed')
    .description(
      'embed every memory that has no vector of the active model yet (after installing or switching models)',
    )
    .action(async (_o, cmd: Command) => {
      await connect(cmd);
      const bar = progressBar(io, 'embedding [{bar}] {value}/{total} memories  {model}');
      const off = follow('embedding.progressed', (p) =>
        bar.update(p.done, p.total, { model: p.model }),
      );
      try {
        const r = await call(cmd, 'embedding.backfill', withStore(cmd, {}));
        bar.stop();
        print(
          cmd,
          r,
          (v) =>
            `${v.embedded} memories embedded with ${v.model} (semantic ${v.semantic})${v.pending ? `, ${v.pending} still waiting` : ''}\n`,
        );
      } finally {
        off();
        bar.stop();
      }
    });

  program
    .command('calibrate')
    .description(
      "set the store's abstention bar from its own memories (runs again by itself as the store grows)",
    )
    .option('--sample <n>', 'memories to build answerable questions from', intArg('--sample'), 200)
    .action(async (o, cmd: Command) => {
      const r = await call(cmd, 'recall.calibrate', withStore(cmd, { sample: o.sample }));
      print(
        cmd,
        r,
        (v) =>
          `${c.green('Calibrated')} ${v.store} for ${v.model}: abstain below similarity ${v.threshold} (balanced accuracy ${v.balanced_accuracy} on ${v.answerable} answerable and ${v.unanswerable} unanswerable questions)\n`,
      );
    });
}

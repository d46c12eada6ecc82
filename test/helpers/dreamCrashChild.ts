// Child process of the dream crash test: opens the engine on the data directory given as
// its argument and runs a full dream cycle that kills this process (SIGKILL: no cleanup,
// no finally) inside the transaction of the phase named by the second argument.
import { Engine } from '../../src/main/engine/engine';

const [dataDir, killIn] = process.argv.slice(2);
const engine = await Engine.open({
  dataDir: dataDir as string,
  owner: 'test',
  env: {},
  embedWrites: 'await',
  dream: {
    insidePhase: (phase) => {
      if (phase === killIn) process.kill(process.pid, 'SIGKILL');
    },
  },
});
await engine.dreams.run({ dry_run: false }, { kind: 'cli', transport: 'in-process' });
process.stdout.write('the cycle finished: the kill never happened\n');
await engine.close();

// Whether a system that should embed with the model does: four memories and two questions
// that share no word (nor stem) with the memory they are about, so that only a search by
// meaning puts it first. A system that silently fell back to keywords finds nothing, one
// on hash vectors finds them by chance (1 in 16 for both). Measured with the int8
// all-MiniLM-L6-v2, each question is 0.63 in cosine from its memory and below 0.1 from the
// others.
import { tempDir, type SystemUnderTest } from './common';

const MEMORIES = [
  'My cat sleeps on the warm windowsill every afternoon.',
  'Quarterly revenue grew four percent after we changed our pricing.',
  'Trains to the airport leave every twenty minutes from platform two.',
  'Water the tomato plants twice a day during the heatwave.',
];
const QUESTIONS: [string, number][] = [
  ['kitty dozing by a sunny window', 0],
  ['company income rose by 4% following new costs', 1],
];

/** Throws, saying what it found, unless the system ranks both questions' memories first. */
export async function requireMeaning(system: SystemUnderTest): Promise<void> {
  const dir = tempDir(`probe-${system.name}`);
  const session = await system.start(dir);
  try {
    const keys: (string | null)[] = [];
    for (let i = 0; i < MEMORIES.length; i++)
      keys.push(await system.write(session.client, i, MEMORIES[i] as string));
    if (system.settle && !(await system.settle(dir, 60)))
      throw new Error('its index had not caught up 60 s after four writes: is its model in use?');
    if (system.checkModel) return system.checkModel(dir);
    for (const [q, target] of QUESTIONS) {
      const top = await system.search(session.client, q);
      if (!top.length || top[0] !== keys[target])
        throw new Error(
          `does not search by meaning here (asked "${q}", got ${top.length ? `another memory first` : 'nothing'}): is its model in use?`,
        );
    }
  } finally {
    await session.stop();
  }
}

// The phases of a cycle, in the order they run.
import type { DreamPhaseName } from '../../../../shared/api';
import type { DreamPhase } from '../types';
import { affect } from './affect';
import { cluster } from './cluster';
import { compete } from './compete';
import { contradict } from './contradict';
import { decay } from './decay';
import { merge } from './merge';
import { recombine } from './recombine';
import { replay } from './replay';
import { retention } from './retention';
import { schema } from './schema';

export const PHASES: Record<DreamPhaseName, DreamPhase<never>> = {
  replay,
  cluster,
  schema,
  affect,
  decay,
  recombine,
  contradict,
  merge,
  compete,
  retention,
} as unknown as Record<DreamPhaseName, DreamPhase<never>>;

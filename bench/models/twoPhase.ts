// TwoPhase (test/fixtures/classic/twoPhase.ts) with its resource managers counted by a
// parameter, for runs through the CLI: `npx modelcheck bench/models/twoPhase.ts --param rms=7`
// (bench/tlc.ts runs it beside TLC).
import { defineModel } from 'modelcheck';
import { twoPhase } from '../../test/fixtures/classic/twoPhase.ts';

export default defineModel({
  name: 'TwoPhase',
  parameters: { rms: { description: 'resource managers', default: 3, min: 1, max: 10 } },
  variants: ({ rms }) => twoPhase(rms).variants,
});

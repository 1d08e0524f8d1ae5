// TwoPhase with plain arrays and objects (test/fixtures/classic/twoPhasePlain.ts), its resource
// managers counted by a parameter: `npx modelcheck bench/models/twoPhasePlain.ts --param rms=7`.
import { defineModel } from 'modelcheck';
import { twoPhasePlain } from '../../test/fixtures/classic/twoPhasePlain.ts';

export default defineModel({
  name: 'TwoPhase-plain',
  parameters: { rms: { description: 'resource managers', default: 3, min: 1, max: 10 } },
  variants: ({ rms }) => twoPhasePlain(rms).variants,
});

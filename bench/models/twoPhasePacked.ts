// TwoPhase with its state packed by hand into small integers (test/fixtures/classic/twoPhasePacked.ts),
// its resource managers counted by a parameter: `npx modelcheck bench/models/twoPhasePacked.ts --param rms=7`.
import { defineModel } from 'modelcheck';
import { twoPhasePacked } from '../../test/fixtures/classic/twoPhasePacked.ts';

export default defineModel({
  name: 'TwoPhase-packed',
  parameters: { rms: { description: 'resource managers', default: 3, min: 1, max: 14 } },
  variants: ({ rms }) => twoPhasePacked(rms).variants,
});

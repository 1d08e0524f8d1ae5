// TwoPhase with its state declared as a packed record (test/fixtures/classic/twoPhaseRecord.ts),
// its resource managers counted by a parameter: `npx modelcheck bench/models/twoPhaseRecord.ts --param rms=7`.
import { defineModel } from 'modelcheck';
import { twoPhaseRecord } from '../../test/fixtures/classic/twoPhaseRecord.ts';

export default defineModel({
  name: 'TwoPhase-record',
  parameters: { rms: { description: 'resource managers', default: 3, min: 1, max: 20 } },
  variants: ({ rms }) => twoPhaseRecord(rms).variants,
});

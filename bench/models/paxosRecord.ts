// Paxos as a packed record (test/fixtures/classic/paxosRecord.ts) with its highest ballot set by
// a parameter: `npx modelcheck bench/models/paxosRecord.ts --param maxBallot=2` (bench/tlc.ts runs
// it beside TLC's MCPaxos with MCPaxosSmall.cfg).
import { defineModel } from 'modelcheck';
import { paxosRecord } from '../../test/fixtures/classic/paxosRecord.ts';

export default defineModel({
  name: 'Paxos-record',
  parameters: { maxBallot: { description: 'the highest ballot number', default: 1, min: 0, max: 4 } },
  variants: ({ maxBallot }) => paxosRecord(maxBallot).variants,
});

// Paxos (test/fixtures/classic/paxos.ts) with its highest ballot set by a parameter, for runs
// through the CLI: `npx modelcheck bench/models/paxos.ts --param maxBallot=2` (bench/tlc.ts runs
// it beside TLC's MCPaxos with MCPaxosSmall.cfg).
import { defineModel } from 'modelcheck';
import { paxos } from '../../test/fixtures/classic/paxos.ts';

export default defineModel({
  name: 'Paxos',
  parameters: { maxBallot: { description: 'the highest ballot number', default: 1, min: 0, max: 4 } },
  variants: ({ maxBallot }) => paxos(maxBallot).variants,
});

// Why a value cannot be part of a state: thrown by the encoder (encoding.ts) and the codec
// (stateCodec.ts), found again with its path by the table (representations/table.ts locate), and
// turned into MC codes where a model's call is checked (modelCalls.ts).

/** Why a value cannot be part of a state; the path says where in the state it sits. */
export class NotAStateValue extends Error {
  constructor(
    readonly path: string,
    readonly what: string,
  ) {
    super(`${what} at ${path || 'the top level'}`);
  }
}

/** A Record type with no name, or two with one name: MC112 (the codec needs names to rebuild Records). */
export class UnnamedRecord extends Error {}

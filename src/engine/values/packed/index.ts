// Packed values, the public part: a state's shape declared once, its values a few small
// integers (packedType.ts). Models import these from modelcheck's entry point as `packed`.
export { oneOf, int, bool, PackedValue, PackedValueError, isPacked, unpack } from './packedType.ts';
export type { PackedType, OneOfType, Primitive, ValueOf, InputOf } from './packedType.ts';
export { setOf, mapOf, seqOf, PackedSet, PackedMap, PackedSeq } from './collections.ts';
export type { SetType, MapType, SeqType } from './collections.ts';
export { record } from './record.ts';
export type { Fields, RecordInput, PackedRecord, PackedRecordOf, RecordType, RecordFactory } from './record.ts';

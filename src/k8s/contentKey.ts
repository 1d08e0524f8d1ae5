// A value's content as a short string, for the library's memos by content (writeMemo.ts, the
// reconciles' memo in kubernetes.ts): the 128-bit digest of its canonical encoding
// (Fingerprinter.key), the odds the checker's part digests already take.
import { NotAStateValue } from '../engine/values/encoding.ts';
import { Fingerprinter } from '../engine/values/fingerprint.ts';

const keys = new Fingerprinter();

/** `value`'s content key, or undefined for a value no state could hold (then the caller works it out every time). */
export function contentKey(value: unknown): string | undefined {
  try {
    return keys.key(value);
  } catch (e) {
    if (e instanceof NotAStateValue) return undefined;
    throw e;
  }
}

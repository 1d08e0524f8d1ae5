// The option parsers every command shares: each takes commander's string and returns the value,
// or refuses it with what it expected (commander prints that as a usage error, exit 2).
import { InvalidArgumentError } from 'commander';
import type { StorageMode } from '../engine/search/storage.ts';

export function positiveInt(value: string): number {
  const n = Number(value);
  if (!Number.isSafeInteger(n) || n < 1) throw new InvalidArgumentError('expected a whole number of at least 1');
  return n;
}

export function storageMode(value: string): StorageMode {
  if (value === 'auto' || value === 'objects' || value === 'bytes' || value === 'disk') return value;
  throw new InvalidArgumentError('expected auto, objects, bytes or disk');
}

export function nonNegativeInt(value: string): number {
  const n = Number(value);
  if (!Number.isSafeInteger(n) || n < 0 || n > 0xffffffff) throw new InvalidArgumentError('expected a whole number from 0 to 4294967295');
  return n;
}

export function nonNegativeNumber(value: string): number {
  const n = Number(value);
  if (!Number.isFinite(n) || n < 0) throw new InvalidArgumentError('expected a number, 0 or more');
  return n;
}

export function positiveNumber(value: string): number {
  const n = Number(value);
  if (!Number.isFinite(n) || n <= 0) throw new InvalidArgumentError('expected a number greater than 0');
  return n;
}

export function port(value: string): number {
  const n = Number(value);
  if (!Number.isSafeInteger(n) || n < 0 || n > 65535) {
    throw new InvalidArgumentError('expected a port number from 0 to 65535 (0: a free one)');
  }
  return n;
}

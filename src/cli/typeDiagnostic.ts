// A type error as the compiler reports it, kept apart from typecheck.ts so that printing one
// does not load the TypeScript compiler into the main thread.
export interface TypeDiagnostic {
  /** The file as a path relative to the working directory. */
  readonly file: string;
  readonly line: number;
  readonly column: number;
  readonly code: number;
  readonly message: string;
}

export function formatTypeDiagnostic(d: TypeDiagnostic): string {
  return `${d.file}:${d.line}:${d.column} TS${d.code}: ${d.message}`;
}

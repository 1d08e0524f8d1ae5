// The declarations of resolveHook.js, for the tests that call its hooks (test/engine/immutableForModels.test.ts).
export function initialize(data: { readonly sources?: boolean; readonly flatRecords?: boolean } | undefined): void;
export function resolve(
  specifier: string,
  context: { readonly parentURL?: string; readonly conditions: readonly string[] },
  nextResolve: (
    specifier: string,
    context: { readonly parentURL?: string; readonly conditions: readonly string[] },
  ) => Promise<{ url: string }>,
): Promise<{ url: string }>;

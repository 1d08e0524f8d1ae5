// The declarations of layout.js, for the TypeScript that calls it (bench/one.ts).
export function own(path: string): string;
export function registerLoaders(): void;
export function registerModelHooks(): void;

// Type errors in a model. The tsx loader strips types without looking at them, so a model that
// does not type-check would still run, and a mistake the compiler names at once (a misspelt
// field, a wrong argument) would show up later as a strange trace, or not at all. The
// TypeScript compiler checks the model's own files (never modelcheck's, nor node_modules),
// with the tsconfig.json nearest to the model, or strict defaults without one.
import type ts from 'typescript';
import { basename, dirname, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { typescript } from './compiler.ts';
import type { TypeDiagnostic } from './typeDiagnostic.ts';

/** modelcheck's own sources: type-checked in its own CI, and slow to check again per run. */
const OWN_SOURCES = resolve(dirname(fileURLToPath(import.meta.url)), '..');
/**
 * A checkout runs its sources and has no dist/ to type a model's `import 'modelcheck'` with:
 * there the model is checked against the sources, as the CLI runs it (bin/sourceCondition.js).
 */
const FROM_SOURCES = basename(OWN_SOURCES) === 'src';

const defaults = (ts: typeof import('typescript')): ts.CompilerOptions => ({
  strict: true,
  target: ts.ScriptTarget.ES2023,
  module: ts.ModuleKind.NodeNext,
  moduleResolution: ts.ModuleResolutionKind.NodeNext,
  allowImportingTsExtensions: true,
  // As `modelcheck init` writes them, and for the same reasons (its tsconfig.json says why): a
  // third of the time without the DOM's types and the @types packages found under node_modules.
  lib: ['lib.es2023.d.ts'],
  types: [],
});

function compilerOptions(ts: typeof import('typescript'), model: string): ts.CompilerOptions {
  const DEFAULTS = defaults(ts);
  const config = ts.findConfigFile(dirname(model), ts.sys.fileExists);
  if (config === undefined) return DEFAULTS;
  const parsed = ts.getParsedCommandLineOfConfigFile(config, {}, { ...ts.sys, onUnRecoverableConfigFileDiagnostic: () => undefined });
  return parsed?.options ?? DEFAULTS;
}

/** The type errors in the model's own files, in file and line order. */
export function typecheckModel(file: string): TypeDiagnostic[] {
  return createTypechecker()(file);
}

/**
 * A type check that can run again (--watch, typecheckWorker.ts): each check's program is built
 * on the last one's, and a file whose text has not changed keeps its parsed and bound syntax
 * tree, so that a re-check after an edit parses only what was edited (not the 0.9 MB of
 * declarations a Kubernetes model reads) and checks afresh.
 */
export function createTypechecker(): (file: string) => TypeDiagnostic[] {
  let previous: ts.Program | undefined;
  let previousOptions = '';
  const parsed = new Map<string, ts.SourceFile>();
  return (file) => {
    const ts = typescript();
    const model = resolve(file);
    // skipLibCheck: declaration files are the libraries' business; checking them triples the time.
    const options = compilerOptions(ts, model);
    const conditions = FROM_SOURCES ? { customConditions: [...(options.customConditions ?? []), 'source'] } : {};
    const all = { ...options, ...conditions, noEmit: true, skipLibCheck: true };
    // Other options (an edited tsconfig.json) may parse the same text otherwise: nothing is kept.
    const key = JSON.stringify(all);
    if (key !== previousOptions) {
      parsed.clear();
      previous = undefined;
      previousOptions = key;
    }
    const host = ts.createCompilerHost(all);
    const read = host.getSourceFile.bind(host);
    host.getSourceFile = (name, languageVersion, onError, shouldCreate) => {
      const text = host.readFile(name);
      const kept = parsed.get(name);
      // The same text parses alike only as the same module format (a package.json's "type" decides it).
      const format = typeof languageVersion === 'object' ? languageVersion.impliedNodeFormat : undefined;
      if (kept !== undefined && text === kept.text && kept.impliedNodeFormat === format && !shouldCreate) return kept;
      const made = read(name, languageVersion, onError, shouldCreate);
      if (made !== undefined) parsed.set(name, made);
      return made;
    };
    const program = ts.createProgram({
      rootNames: [model],
      options: all,
      host,
      ...(previous !== undefined ? { oldProgram: previous } : {}),
    });
    previous = program;
    // Files the model no longer reads are let go.
    const reads = new Set(program.getSourceFiles().map((f) => f.fileName));
    for (const name of parsed.keys()) if (!reads.has(name)) parsed.delete(name);
    return errorsOf(ts, program);
  };
}

function errorsOf(ts: typeof import('typescript'), program: ts.Program): TypeDiagnostic[] {
  const out: TypeDiagnostic[] = [];
  for (const source of program.getSourceFiles()) {
    const name = resolve(source.fileName);
    if (source.isDeclarationFile || name.includes('/node_modules/') || name.startsWith(`${OWN_SOURCES}/`)) continue;
    const diagnostics = [...program.getSyntacticDiagnostics(source), ...program.getSemanticDiagnostics(source)];
    for (const d of diagnostics) {
      if (d.category !== ts.DiagnosticCategory.Error) continue;
      const { line, character } = source.getLineAndCharacterOfPosition(d.start ?? 0);
      out.push({
        file: relative(process.cwd(), name),
        line: line + 1,
        column: character + 1,
        code: d.code,
        message: ts.flattenDiagnosticMessageText(d.messageText, ' '),
      });
    }
  }
  return out;
}

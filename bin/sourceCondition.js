// A module hook registered only in a checkout (layout.js): `import 'modelcheck'` resolves with the
// "source" export condition (package.json: src/index.ts), the module the CLI itself runs, where
// otherwise it would get dist/, which a checkout need not have built. Only for this very package:
// a model whose folder resolves some other copy of modelcheck gets that copy, as Node gives it.
const OWN = new URL('../', import.meta.url).href;

export async function resolve(specifier, context, nextResolve) {
  if (specifier === 'modelcheck' || specifier.startsWith('modelcheck/')) {
    try {
      const found = await nextResolve(specifier, { ...context, conditions: [...context.conditions, 'source'] });
      if (found.url.startsWith(OWN)) return found;
    } catch {
      // Not resolvable with the condition either: Node's own answer (and error) below.
    }
  }
  return nextResolve(specifier, context);
}

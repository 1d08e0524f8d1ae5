// Module resolution hooks, registered in every thread by layout.js.
//
// 1. In a checkout (`sources`), `import 'modelcheck'` resolves with the "source" export condition
//    (package.json: src/index.ts), the module the CLI itself runs, where otherwise it would get
//    dist/, which a checkout need not have built. Only for this very package: a model whose
//    folder resolves some other copy of modelcheck gets that copy, as Node gives it.
// 2. A model imported again after an edit (--watch) is imported with `?modelcheck-run=N` on its
//    URL (src/cli/loadModel.ts): a new module instance. Its own local modules get the same query
//    here, so that they are read again too; packages (anything under node_modules) and
//    modelcheck's own code never do: the model must share them with the engine that checks it.
const OWN = new URL('../', import.meta.url).href;
const OWN_CODE = [`${OWN}src/`, `${OWN}dist/`, `${OWN}bin/`];
const RUN = /[?&](modelcheck-run=\d+)/;
let sources = false;

export function initialize(data) {
  sources = data?.sources === true;
}

export async function resolve(specifier, context, nextResolve) {
  if (sources && (specifier === 'modelcheck' || specifier.startsWith('modelcheck/'))) {
    try {
      const found = await nextResolve(specifier, { ...context, conditions: [...context.conditions, 'source'] });
      if (found.url.startsWith(OWN)) return found;
    } catch {
      // Not resolvable with the condition either: Node's own answer (and error) below.
    }
  }
  const found = await nextResolve(specifier, context);
  const run = context.parentURL === undefined ? null : RUN.exec(context.parentURL);
  if (run === null || !found.url.startsWith('file:') || found.url.includes('/node_modules/') || RUN.test(found.url)) return found;
  if (OWN_CODE.some((dir) => found.url.startsWith(dir))) return found;
  return { ...found, url: `${found.url}${found.url.includes('?') ? '&' : '?'}${run[1]}` };
}

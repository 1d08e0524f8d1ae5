// Worker threads do not inherit the loaders: register them as the CLI's threads do (tsx, and the
// model's immutable.js: bin/layout.js), then run the TypeScript helper.
import { registerLoaders } from '../bin/layout.js';

registerLoaders();
await import('./helper.ts');

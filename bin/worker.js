// Worker threads do not inherit the main thread's loader: register tsx here too.
import { register } from 'tsx/esm/api';

register();
await import('../src/cli/variantWorker.ts');

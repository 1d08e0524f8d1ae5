// Worker threads do not inherit the loader: register tsx, then run the TypeScript helper.
import { register } from 'tsx/esm/api';

register();
await import('./helper.ts');

import { it } from 'vitest';
it('blocks', () => { const t = Date.now(); while (Date.now() - t < 3000); }, 1000);

// edgegraph/providers/gemini: pass it as llm.provider; only this provider's code is bundled.
import type { Provider } from './index.js';
export const gemini: Provider;

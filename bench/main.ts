import { print, ratioCase, type Figure } from './bench';

const figs: Figure[] = [];
// harness self-check: the floor against itself must print ~1.00x
const text = JSON.stringify({ messages: Array.from({ length: 2000 }, (_, i) => ({ role: i % 2 ? 'assistant' : 'user', content: `turn ${i}` })) });
figs.push(ratioCase({ name: 'harness self-check (JSON.parse vs JSON.parse)', floor: { name: 'JSON.parse', run: () => JSON.parse(text) }, ours: { name: 'JSON.parse', run: () => JSON.parse(text) } }));
print(figs);

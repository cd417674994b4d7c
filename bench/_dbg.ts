import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runHeadless } from '../src/node/headless/runner';
import { loadBenchScenario, prepareWorkspace } from './economy/benchScenario';
import { hooksFor } from './economy/strategies';
async function main() {
  const bench = await loadBenchScenario(process.argv[2]!);
  const root = await mkdtemp(join(tmpdir(), 'dbg-'));
  const ws = join(root, 'ws');
  await prepareWorkspace(bench, ws);
  const r = await runHeadless({ workspaceDir: ws, scenario: bench.scenario, outDir: join(root, 'out'), homeDir: join(root, 'h'), idSeed: 0xca1, strategy: hooksFor((process.argv[3] ?? 'cairn') as 'cairn', ws) });
  for (const q of r.server!.requests) {
    const u = q.usage; if (!u) { console.log(q.index, q.kind, q.status); continue; }
    const tot = u.input_tokens + u.cache_creation_input_tokens + u.cache_read_input_tokens;
    console.log(q.index, q.kind, 'total', tot, 'read', u.cache_read_input_tokens, 'write', u.cache_creation_input_tokens, 'unc', u.input_tokens, 'bp', JSON.stringify(q.cache?.breakpoints), 'hit', q.cache?.hitBlock, 'blocks', q.cache?.blocks);
  }
  console.log(root);
}
void main();

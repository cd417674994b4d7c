/** The peers benchmark's Markdown: one table per scenario, then where each agent's tokens go. */
import { CATEGORIES, type TokenCategory } from './categories';
import { delegationSplitMarkdown } from './delegationSplit';
import type { AgentRow, PeersRun } from './runPeers';

const CATEGORY_LABEL: Record<TokenCategory, string> = {
  reads: 'reads',
  commandOutput: 'command output',
  editAnswers: 'edit answers',
  searches: 'searches',
  text: 'text and calls',
};

function int(value: number): string {
  return Math.round(value).toLocaleString('en-US');
}

/** Breaks, and how many of them were deliberate (an elision is one recorded break). */
function breaksCell(r: AgentRow): string {
  return r.elisions > 0 ? `${r.cacheBreaks} (${Math.min(r.elisions, r.cacheBreaks)} at elisions)` : String(r.cacheBreaks);
}

export function peersMarkdown(run: PeersRun): string {
  const out: string[] = [];
  for (const result of run.report.scenarios) {
    out.push(`### ${result.scenario}`, '');
    const cairn = result.agents.find((r) => r.agent === 'cairn');
    out.push(
      '| agent | version | requests | retrievals | side | billed-input eq. | Cairn / agent | uncached | cache write | cache read | breaks | fixed | peak context | compactions lossy | lossless (elisions) | outside conn. | check |',
    );
    out.push('|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|');
    for (const r of result.agents) {
      const ratio = cairn && r.agent !== 'cairn' && r.billed > 0 ? (cairn.billed / r.billed).toFixed(2) : '';
      out.push(
        `| ${r.agent} | ${r.version} | ${r.requests} | ${r.retrievals} | ${r.sideRequests} | ${int(r.billed)} | ${ratio} | ${int(r.uncached)} | ${int(r.cacheWrite)} | ${int(r.cacheRead)} | ${breaksCell(r)} | ${int(r.fixedTokens)} | ${int(r.peakContext)} | ${r.compactions} | ${r.elisions} | ${r.outsideConnections} | ${r.check === 'failed' ? '**failed**' : r.check} |`,
      );
    }
    out.push('');
    if (result.bestPeer) {
      out.push(`Cairn / best peer (${result.bestPeer}): ${result.cairnToBest === null ? 'n/a' : `${result.cairnToBest.toFixed(2)}`}.`, '');
      // Cairn's other configurations (`cairn-failures`), each against the same best peer.
      const peer = result.agents.find((r) => r.agent === result.bestPeer);
      for (const variant of result.agents.filter((r) => r.agent.startsWith('cairn-')))
        if (peer && peer.billed > 0)
          out.push(`${variant.agent} / best peer (${peer.agent}): ${(variant.billed / peer.billed).toFixed(2)}.`, '');
    }
    const details = run.details.get(result.scenario);
    out.push(`Peak context split: fixed (tools + system) and conversation by source, tokens.`, '');
    out.push(
      `| agent | fixed | ${CATEGORIES.map((c) => CATEGORY_LABEL[c]).join(' | ')} |`,
      `|---|---:|${CATEGORIES.map(() => '---:').join('|')}|`,
    );
    for (const r of result.agents) {
      const d = details?.get(r.agent);
      if (d) out.push(`| ${r.agent} | ${int(r.fixedTokens)} | ${CATEGORIES.map((c) => int(d.conversation[c])).join(' | ')} |`);
    }
    out.push('');
    out.push(
      ...delegationSplitMarkdown(
        result.agents.flatMap((r) => {
          const split = details?.get(r.agent)?.split;
          return split ? [{ agent: r.agent, split }] : [];
        }),
      ),
    );
    for (const r of result.agents) {
      const d = details?.get(r.agent);
      if (r.firstBreak) out.push(`- ${r.agent}: first cache break at ${r.firstBreak}.`);
      if (d?.unmetNeeds.length) out.push(`- ${r.agent}: needs never made visible: ${d.unmetNeeds.join('; ')}.`);
      if (d?.checkOutput) out.push(`- ${r.agent}: the end-state check failed:`, '', '```', d.checkOutput, '```');
      if (d?.notices.length)
        out.push(
          `- ${r.agent}: script notices: ${d.notices.slice(0, 5).join(' · ')}${d.notices.length > 5 ? ` (+${d.notices.length - 5} more)` : ''}`,
        );
    }
    out.push('');
  }
  if (run.caveats.size > 0) {
    out.push('Not comparable:', ...[...run.caveats].map(([name, why]) => `- ${name}: ${why}`), '');
  }
  if (run.skipped.size > 0) {
    out.push('Skipped:', ...[...run.skipped].map(([name, why]) => `- ${name}: ${why}`), '');
  }
  return out.join('\n');
}

/** The peers benchmark's Markdown: one table per scenario, then where each agent's tokens go. */
import { CATEGORIES, type TokenCategory } from './categories';
import { delegationSplitMarkdown } from './delegationSplit';
import type { AgentRow, PeersRun, ScenarioResult } from './runPeers';

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

function thousands(value: number): string {
  return `${(value / 1000).toFixed(1)}k`;
}

/** Breaks, and how many of them were deliberate (an elision is one recorded break). */
function breaksCell(r: AgentRow): string {
  return r.elisions > 0 ? `${r.cacheBreaks} (${Math.min(r.elisions, r.cacheBreaks)} at elisions)` : String(r.cacheBreaks);
}

/** A duration as people say it: `45 s`, `7 min 50 s`, `1 h 0 min 22 s`. */
export function spokenDuration(seconds: number): string {
  const whole = Math.round(seconds);
  const h = Math.floor(whole / 3600);
  const min = Math.floor((whole % 3600) / 60);
  const s = whole % 60;
  if (h > 0) return `${h} h ${min} min ${s} s`;
  if (min > 0) return `${min} min ${s} s`;
  return `${s} s`;
}

function percent(share: number): string {
  return `${(share * 100).toFixed(1)}%`;
}

/** The user's idle pattern, then per agent what expiry cost: the tokens written again after a gap and their share of the bill. */
function expiryMarkdown(result: ScenarioResult): string[] {
  const gaps = result.idle.slice(1);
  const over = (minutes: number): number => gaps.filter((g) => g > minutes * 60).length;
  const out: string[] = [];
  if (result.idle.some((s) => s > 0)) {
    out.push(
      `Idle before each user turn, the same for every agent: ${result.idle.map(spokenDuration).join(', ')} ` +
        `(${gaps.length} gap${gaps.length === 1 ? '' : 's'}: ${over(5)} over five minutes, ${over(60)} over an hour; ${spokenDuration(gaps.reduce((a, b) => a + b, 0))} in all).`,
      '',
    );
  } else out.push('No idle between user turns (the script gives none).', '');
  out.push(
    'What expiry cost: the tokens written again because the cache entry that held them had expired (a live one would have been read), ' +
      'and the whole cache write of the requests that found their prefix expired (the first after a gap that outlived an entry: ' +
      'that rewrite, what the agent chose to send differently to a cold cache, and what was new), each priced (1.25× input, 2× to a one-hour entry) as a share of the bill.',
    '',
    '| agent | cache write | of it to one-hour entries | written again after expiry | share of the bill | written at cold starts | share of the bill |',
    '|---|---:|---:|---:|---:|---:|---:|',
  );
  for (const r of result.agents) {
    out.push(
      `| ${r.agent} | ${int(r.cacheWrite)} | ${int(r.cacheWrite1h)} | ${int(r.expiryRewrite)} | ${percent(r.expiryShare)} | ${int(r.coldStartWrite)} | ${percent(r.coldStartShare)} |`,
    );
  }
  out.push('');
  return out;
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
    out.push(...expiryMarkdown(result));
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
      'Carried over the run: each source’s tokens summed over every request (thousands; cached, each costs 0.1 of an input token), and the cache writes.',
      '',
      `| agent | fixed | ${CATEGORIES.map((c) => CATEGORY_LABEL[c]).join(' | ')} | all carried | cache write |`,
      `|---|---:|${CATEGORIES.map(() => '---:').join('|')}|---:|---:|`,
    );
    for (const r of result.agents) {
      const all = r.carried.fixed + CATEGORIES.reduce((sum, c) => sum + r.carried[c], 0);
      out.push(
        `| ${r.agent} | ${thousands(r.carried.fixed)} | ${CATEGORIES.map((c) => thousands(r.carried[c])).join(' | ')} | ${thousands(all)} | ${int(r.cacheWrite)} |`,
      );
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

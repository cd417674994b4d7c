import { packTokens } from '../compose/packs';

/** The estimate the report shows beside a skill (seed 004's characters / 4, the same as packs). */
export function estimateTokensOfText(text: string): number {
  return packTokens(text);
}

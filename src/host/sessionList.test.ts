import { describe, expect, it } from 'vitest';
import type { SessionSummary } from '../core/journal/node/sessionCatalog';
import { SESSION_PICK_OPTIONS, sessionPickItems } from './sessionList';

const summary = (id: string, title: string, updated: string): SessionSummary => ({
  id,
  title,
  created: updated,
  updated,
  messageCount: 4,
  workspace: '/ws',
  model: 'm',
  bytes: 1,
  inUse: false,
});

describe('the session picker', () => {
  it('puts the open session first and marks it; the date and count are searchable beside the title', () => {
    const items = sessionPickItems(
      [summary('newer', 'Fix the parser', '2026-03-14T10:20:00.000Z'), summary('older', '', '2026-02-01T08:00:00.000Z')],
      'older',
    );
    expect(items.map((i) => i.sessionId)).toEqual(['older', 'newer']);
    expect(items[0]).toMatchObject({ label: '$(circle-filled) (no message yet)', description: 'current · 4 messages · 2026-02-01 08:00' });
    expect(items[1]).toMatchObject({ label: 'Fix the parser', description: '4 messages · 2026-03-14 10:20', detail: 'newer' });
    expect(SESSION_PICK_OPTIONS).toEqual({ matchOnDescription: true, matchOnDetail: true });
  });
});

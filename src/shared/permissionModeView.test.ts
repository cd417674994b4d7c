import { describe, expect, it } from 'vitest';
import { PERMISSION_MODES } from '../core/agent/permissionModeNames';
import { nextPermissionMode, PERMISSION_MODE_CYCLE, PERMISSION_MODE_LABELS } from './permissionModeView';

describe('the chat’s permission mode cycle', () => {
  it('goes through every mode core has, once, back to the start', () => {
    expect([...PERMISSION_MODE_CYCLE].sort()).toEqual([...PERMISSION_MODES].sort());
    expect(Object.keys(PERMISSION_MODE_LABELS).sort()).toEqual([...PERMISSION_MODES].sort());
    let mode = PERMISSION_MODE_CYCLE[0]!;
    const seen = [mode];
    for (let i = 1; i < PERMISSION_MODE_CYCLE.length; i++) seen.push((mode = nextPermissionMode(mode)));
    expect(seen).toEqual(['ask', 'acceptEdits', 'plan', 'auto']);
    expect(nextPermissionMode('auto')).toBe('ask');
  });
});

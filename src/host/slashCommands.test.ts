import { describe, expect, it } from 'vitest';
import { SlashCommandNameError, SlashCommands } from './slashCommands';
import { modelChoices } from './modelChoices';

describe('SlashCommands', () => {
  it('adds an entry with one call, lists them sorted, and matches `/name text` case-insensitively', () => {
    const slash = new SlashCommands();
    const ran: string[] = [];
    slash.add({ name: 'new', description: 'New session', run: () => void ran.push('new') });
    const skill = slash.add({
      name: 'review:pr',
      description: 'A skill',
      argumentHint: '[number]',
      run: (a) => void ran.push(`skill ${a}`),
    });
    expect(slash.list()).toEqual([
      { name: 'new', description: 'New session' },
      { name: 'review:pr', description: 'A skill', argumentHint: '[number]' },
    ]);
    const found = slash.match('  /Review:PR   42 and more\n');
    expect(found?.command.name).toBe('review:pr');
    expect(found?.args).toBe('42 and more');
    expect(slash.match('/new')?.args).toBe('');
    skill.dispose();
    expect(slash.match('/review:pr 1')).toBeUndefined();
  });

  it('leaves what is not a known command to the model: paths, unknown names, text before the slash', () => {
    const slash = new SlashCommands();
    slash.add({ name: 'compact', description: 'c', run: () => undefined });
    expect(slash.match('/usr/bin/env is missing')).toBeUndefined();
    expect(slash.match('/compacting')).toBeUndefined();
    expect(slash.match('please /compact')).toBeUndefined();
    expect(slash.match('/compactx y')).toBeUndefined();
  });

  it('refuses a name that could not be typed as one word', () => {
    const slash = new SlashCommands();
    expect(() => slash.add({ name: 'two words', description: '', run: () => undefined })).toThrow(SlashCommandNameError);
    expect(() => slash.add({ name: '/x', description: '', run: () => undefined })).toThrow(SlashCommandNameError);
  });
});

describe('modelChoices', () => {
  it('gives each listed model its window and price, and keeps a current model the server does not list', () => {
    const choices = modelChoices(
      [
        { id: 'claude-sonnet-4-5-20250929', displayName: 'Claude Sonnet 4.5', maxInputTokens: 200_000 },
        { id: 'mystery-model', displayName: 'Mystery' },
      ],
      'my-custom-model',
      { 'my-custom': { input: 1, output: 2, cacheWrite: 1.25, cacheRead: 0.1 } },
    );
    expect(choices.current).toBe('my-custom-model');
    expect(choices.models[0]).toEqual({
      id: 'my-custom-model',
      displayName: 'my-custom-model (from settings)',
      price: { input: 1, output: 2 },
    });
    expect(choices.models[1]).toMatchObject({ id: 'claude-sonnet-4-5-20250929', windowTokens: 200_000, price: { input: 3, output: 15 } });
    expect(choices.models[2]).toEqual({ id: 'mystery-model', displayName: 'Mystery' });
  });
});

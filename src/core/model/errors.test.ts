import { describe, expect, it } from 'vitest';
import { classifyHttpFailure, isPromptTooLongMessage, ModelError, redactSecret, retryAfterMsFromHeaders } from './errors';

const headers = (values: Record<string, string>) => ({ get: (name: string) => values[name] ?? null });

describe('classifyHttpFailure', () => {
  it.each([
    [401, 'auth', false],
    [403, 'auth', false],
    [429, 'rate_limited', true],
    [529, 'overloaded', true],
    [500, 'server', true],
    [503, 'server', true],
    [404, 'not_found', false],
    [422, 'bad_request', false],
    [413, 'prompt_too_long', false],
  ] as const)('status %i is %s (retryable: %s)', (status, kind, retryable) => {
    const error = classifyHttpFailure({ status, apiMessage: 'details' });
    expect(error.kind).toBe(kind);
    expect(error.status).toBe(status);
    expect(error.retryable).toBe(retryable);
    expect(error.advice).toBeTruthy();
  });

  it('tells a too-long prompt from other 400s by its message', () => {
    expect(classifyHttpFailure({ status: 400, apiMessage: 'prompt is too long: 208310 tokens > 200000 maximum' }).kind).toBe(
      'prompt_too_long',
    );
    expect(classifyHttpFailure({ status: 400, apiMessage: 'max_tokens: must be at most 64000' }).kind).toBe('bad_request');
  });

  it('classifies an error event inside a stream by its type', () => {
    expect(classifyHttpFailure({ type: 'overloaded_error', apiMessage: 'Overloaded' }).kind).toBe('overloaded');
    expect(classifyHttpFailure({ type: 'api_error', apiMessage: 'Internal' }).kind).toBe('server');
  });

  it('names the server that answered when it is not Anthropic’s (cairn.baseUrl), and no literal backticks', () => {
    const other = classifyHttpFailure({ status: 401, apiMessage: 'bad key', server: 'http://127.0.0.1:8080' });
    expect(other.message).toBe('The server at http://127.0.0.1:8080 rejected the API key (401): bad key');
    expect(classifyHttpFailure({ status: 401 }).message).toBe('The Anthropic API rejected the API key (401).');
    for (const status of [401, 404, 429, 500, 529, 422]) {
      const error = classifyHttpFailure({ status, server: 'http://x' });
      expect(`${error.message} ${error.advice ?? ''}`).not.toContain('`');
      expect(error.message).not.toContain('Anthropic API');
    }
  });

  it('carries the server-requested wait', () => {
    const error = classifyHttpFailure({ status: 429, headers: headers({ 'retry-after': '7' }) });
    expect(error.retryAfterMs).toBe(7000);
  });
});

describe('retryAfterMsFromHeaders', () => {
  it('prefers retry-after-ms, reads seconds and HTTP dates, ignores junk', () => {
    expect(retryAfterMsFromHeaders(headers({ 'retry-after-ms': '250', 'retry-after': '9' }))).toBe(250);
    expect(retryAfterMsFromHeaders(headers({ 'retry-after': '1.5' }))).toBe(1500);
    const now = Date.parse('2026-01-01T00:00:00Z');
    expect(retryAfterMsFromHeaders(headers({ 'retry-after': 'Thu, 01 Jan 2026 00:00:04 GMT' }), now)).toBe(4000);
    expect(retryAfterMsFromHeaders(headers({ 'retry-after': 'soon' }))).toBeUndefined();
    expect(retryAfterMsFromHeaders(null)).toBeUndefined();
  });
});

describe('helpers', () => {
  it('recognises the wordings of a too-long prompt', () => {
    expect(isPromptTooLongMessage('Prompt is too long')).toBe(true);
    expect(isPromptTooLongMessage('input length and `max_tokens` exceed context limit')).toBe(false);
    expect(isPromptTooLongMessage('too many input tokens')).toBe(true);
  });

  it('redacts a secret wherever it appears', () => {
    expect(redactSecret('key sk-ant-xyz1234 and sk-ant-xyz1234', 'sk-ant-xyz1234')).toBe('key [redacted] and [redacted]');
  });

  it('wraps unknown failures, keeping aborts as cancels', () => {
    const abort = new Error('aborted');
    abort.name = 'AbortError';
    expect(ModelError.fromUnknown(abort).kind).toBe('cancelled');
    const other = ModelError.fromUnknown(new TypeError('boom'));
    expect(other.kind).toBe('server');
    expect(other.message).toContain('boom');
    const same = new ModelError('auth', 'x');
    expect(ModelError.fromUnknown(same)).toBe(same);
  });
});

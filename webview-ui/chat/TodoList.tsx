import type { TodoItemView } from '../../src/shared/protocol';

const MARK: Record<TodoItemView['status'], string> = { pending: '○', in_progress: '◐', done: '●' };
const SAID: Record<TodoItemView['status'], string> = { pending: 'pending', in_progress: 'in progress', done: 'done' };

/**
 * The model's plan (its `todo` tool), live above the input; nothing when there is no plan, or when its task is
 * done: every step done and the turn over (`working` false). A plan left unfinished stays: it says what is left.
 */
export function TodoList({ items, working }: { items: readonly TodoItemView[]; working: boolean }) {
  const done = items.filter((i) => i.status === 'done').length;
  if (items.length === 0 || (done === items.length && !working)) return null;
  return (
    <section class="todo-list" aria-label={`Plan: ${done} of ${items.length} done`}>
      <header class="todo-header quiet">
        Plan · {done}/{items.length} done
      </header>
      <ol>
        {items.map((item, i) => (
          <li key={i} class={`todo-item todo-${item.status}`}>
            <span class="todo-mark" aria-label={SAID[item.status]} title={SAID[item.status]}>
              {MARK[item.status]}
            </span>{' '}
            {item.text}
          </li>
        ))}
      </ol>
    </section>
  );
}

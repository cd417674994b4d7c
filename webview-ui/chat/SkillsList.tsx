import { useSignal } from '@preact/signals';
import type { SkillView } from '../../src/shared/protocol';

/**
 * The skills the user can turn on, behind a toggle button: each with its description and where it lives.
 * A change goes out with the next message (its envelope ahead of the text); `/name` in the input does the same.
 */
export function SkillsList({ skills, onToggle }: { skills: readonly SkillView[]; onToggle: (name: string, active: boolean) => void }) {
  const open = useSignal(false);
  const listed = skills.filter((s) => s.userInvocable);
  if (listed.length === 0) return null;
  const active = listed.filter((s) => s.active).length;
  return (
    <section class="skills-list" aria-label="Skills">
      <button type="button" class="skills-toggle" aria-expanded={open.value} onClick={() => (open.value = !open.value)}>
        Skills ({active} of {listed.length} on)
      </button>
      {open.value && (
        <ul>
          {listed.map((skill) => (
            <li key={skill.name}>
              <label title={skill.file}>
                <input
                  type="checkbox"
                  checked={skill.active}
                  onChange={(e) => onToggle(skill.name, (e.currentTarget as HTMLInputElement).checked)}
                />{' '}
                <code>/{skill.name}</code> <span class="quiet">{skill.description}</span>
                {skill.scope === 'user' && <span class="quiet"> (yours)</span>}
              </label>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

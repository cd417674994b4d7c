import type { Mention } from '../core/agent/mentions';
import { errorMessage } from '../core/errorMessage';
import type { TurnHooks } from '../core/hooks/turnHooks';
import type { PastedImage } from '../shared/protocolChatViews';
import { gatherContextMentions, isContextMentionName } from './contextMentions';
import type { CustomCommandsHost } from './customCommandsHost';
import { attachableMentions } from './fileMentions';
import { pastedImageMentions } from './pastedImages';
import type { SessionControllerDeps } from './sessionControllerDeps';
import type { SkillsHost } from './skillsHost';

export interface MessagePreparationDeps {
  readonly sources: Pick<SessionControllerDeps, 'isWorkspaceFile' | 'isWorkspaceFolder' | 'contextMentions'>;
  readonly customCommands: Pick<CustomCommandsHost, 'expand'>;
  readonly skills: Pick<SkillsHost, 'prepare'>;
  /** Says in the chat why a step refused the message. */
  readonly postError: (kind: string, message: string) => void;
  /** Gives the user's text back to the input (a refused image: nothing typed is lost). */
  readonly insertIntoInput: (text: string) => void;
}

/**
 * What the user typed, made ready to send: what it attaches (the files and folders it mentions, the editor's
 * context by name, the images pasted with it), read when it is sent; and its text as it goes, through a custom
 * command's expansion, the skills it turns on or off, and the user's `UserPromptSubmit` hooks. A step that refuses
 * says why in the chat, and the message is not sent.
 */
export class MessagePreparation {
  constructor(private readonly deps: MessagePreparationDeps) {}

  /**
   * What a message mentions: workspace files and folders (`@path`), then the editor's context by name
   * (`@problems`, `@terminal`, `@changes`), read now. A name wins over a file of that name.
   */
  async mentionsOf(text: string): Promise<Mention[]> {
    const { isWorkspaceFile, isWorkspaceFolder, contextMentions } = this.deps.sources;
    const files = isWorkspaceFile ? await attachableMentions(text, isWorkspaceFile, isWorkspaceFolder) : [];
    const named = await gatherContextMentions(text, contextMentions);
    return [...files.filter((mention) => !isContextMentionName(mention.path)), ...named];
  }

  /** Its mentions and its images; undefined when an image cannot go (said, and the text back in the input). */
  async attachments(text: string, images: readonly PastedImage[]): Promise<Mention[] | undefined> {
    try {
      return [...(await this.mentionsOf(text)), ...(await pastedImageMentions(images))];
    } catch (error) {
      // An image Cairn will not send (too large, not an image).
      this.deps.postError('image', errorMessage(error));
      this.deps.insertIntoInput(text);
      return undefined;
    }
  }

  /** The text that goes, or undefined when a step refused it (the step said why). */
  async textOf(text: string, hooks: Pick<TurnHooks, 'beforePrompt'>): Promise<string | undefined> {
    const expanded = await this.deps.customCommands.expand(text).catch((error: unknown) => {
      this.deps.postError('slash_command', errorMessage(error));
      return undefined;
    });
    if (expanded === undefined) return undefined;
    const prepared = await this.deps.skills.prepare(expanded).catch((error: unknown) => {
      this.deps.postError('skills', errorMessage(error));
      return { send: false } as const;
    });
    if (!prepared.send) return undefined;
    const submitted = await hooks.beforePrompt(prepared.text);
    if (!submitted.send) {
      this.deps.postError('hook', submitted.reason);
      return undefined;
    }
    return submitted.text;
  }
}

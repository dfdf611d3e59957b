/**
 * `packetpath shell --lab ID`: the lab's side of the terminal. The cluster runs in the very session
 * class the browser's Web Worker uses (`src/runtime/lab-session.ts`), so `lab check` shows the verdicts
 * the checks panel shows and `--report FILE` writes the report the Download button makes: an instructor
 * re-grades both alike.
 *
 * Lines whose first word is `lab` are the panel's buttons, not shell input: they are not recorded in
 * the journal (the browser's Hint and Check buttons are not either). `lab solution` asks first, as the
 * browser does, and reads the answer from the next input line.
 */
import en from '../../i18n/en.json' with { type: 'json' };
import ptBR from '../../i18n/pt-BR.json' with { type: 'json' };
import { score, type LoadedLab } from '../../grader/index.ts';
import { LabSession } from '../lab-session.ts';
import type { CheckSummary, ExecOutput, LabInfo } from '../protocol.ts';
import type { Locale } from './grade-deps.ts';

type UiKey = Extract<keyof typeof en, `lab.${string}`>;
const UI: Readonly<Record<Locale, Readonly<Record<UiKey, string>>>> = { en, 'pt-BR': ptBR };

/** The terminal's own words (the browser's name buttons the terminal does not have). */
const CLI_TEXT = {
  en: {
    usage: [
      'lab steps      the lab’s steps',
      'lab check      run the checks and explain the ones that fail',
      'lab quiz       the lab’s questions; lab quiz QUESTION CHOICE… answers one',
      'lab hint       the next hint',
      'lab solution   the solution (asks first), then offers to run it',
    ].join('\n'),
    unknown: 'lab: unknown subcommand "{sub}" (try lab steps, lab check, lab quiz, lab hint, lab solution)',
    noQuiz: 'This lab has no questions.',
    quizHow:
      'Answer with `lab quiz QUESTION CHOICE` (several choices for a question marked "pick every right one"), by id or number: `lab quiz {example}`.',
    quizMultiple: '(pick every right one)',
    quizWhere: '`lab quiz` shows the question; `lab quiz {id} CHOICE` answers it.',
    quizRecorded: 'Answer to {id} recorded: {verdict}',
    noMoreHints: 'That was the last hint. `lab solution` shows the full answer.',
    noHints: 'This lab has no hints.',
    yesNo: '[y/N]',
    noSolution: 'This lab has no solution to show.',
    notRun: 'The solution was not run.',
    reportWritten: 'Report written to {file}.',
  },
  'pt-BR': {
    usage: [
      'lab steps      os passos do lab',
      'lab check      roda as verificações e explica as que falham',
      'lab quiz       as perguntas do lab; lab quiz PERGUNTA OPÇÃO… responde uma',
      'lab hint       a próxima dica',
      'lab solution   a solução (pergunta antes) e a opção de executá-la',
    ].join('\n'),
    unknown:
      'lab: subcomando desconhecido "{sub}" (tente lab steps, lab check, lab quiz, lab hint, lab solution)',
    noQuiz: 'Este lab não tem perguntas.',
    quizHow:
      'Responda com `lab quiz PERGUNTA OPÇÃO` (várias opções numa pergunta marcada "marque todas as certas"), pelo id ou pelo número: `lab quiz {example}`.',
    quizMultiple: '(marque todas as certas)',
    quizWhere: '`lab quiz` mostra a pergunta; `lab quiz {id} OPÇÃO` responde.',
    quizRecorded: 'Resposta de {id} registrada: {verdict}',
    noMoreHints: 'Essa foi a última dica. `lab solution` mostra a resposta completa.',
    noHints: 'Este lab não tem dicas.',
    yesNo: '[s/N]',
    noSolution: 'Este lab não tem solução para mostrar.',
    notRun: 'A solução não foi executada.',
    reportWritten: 'Relatório gravado em {file}.',
  },
} as const satisfies Record<Locale, Record<string, string>>;
type CliKey = keyof (typeof CLI_TEXT)['en'];

function fill(template: string, params: Readonly<Record<string, string | number>>): string {
  return template.replace(/\{(\w+)\}/g, (m, name: string) =>
    Object.hasOwn(params, name) ? String(params[name]) : m,
  );
}

/** An answer to a confirmation: y/yes/s/sim (any case) is yes; anything else, or nothing, is no. */
export function isYes(answer: string): boolean {
  return /^\s*(y|yes|s|sim)\s*$/i.test(answer);
}

/** Whether a typed line is a `lab …` command for the panel rather than a line for the shell. */
export function isLabCommand(line: string): boolean {
  return /^\s*lab(\s|$)/.test(line);
}

export interface LabShellOptions {
  readonly locale: Locale;
  readonly drawSeed: number;
  /** The host's clock, for the report's times. */
  readonly now?: () => string;
}

export class LabShell {
  readonly session: LabSession;
  private info: LabInfo | undefined;
  private hintLevel = 0;
  /** What the next input line answers, when a confirmation is pending. */
  private asking: ((answer: string) => string) | undefined;
  /** The pending confirmation's question, shown as the prompt for its answer. */
  question: string | undefined;
  readonly locale: Locale;

  constructor(loaded: LoadedLab, opts: LabShellOptions) {
    this.locale = opts.locale;
    this.session = new LabSession(loaded, () => {}, opts.now, opts.drawSeed);
  }

  async start(): Promise<{ prompt: string }> {
    const result = await this.session.load({ kind: 'fresh' });
    this.info = result.lab;
    return { prompt: result.prompt };
  }

  private get lab(): LabInfo {
    if (!this.info) throw new Error('lab not started');
    return this.info;
  }

  private ui(key: UiKey, params: Readonly<Record<string, string | number>> = {}): string {
    return fill(UI[this.locale][key], params);
  }

  private cli(key: CliKey, params: Readonly<Record<string, string | number>> = {}): string {
    return fill(CLI_TEXT[this.locale][key], params);
  }

  /** True while the next line answers a question rather than being a command. */
  get waitingForAnswer(): boolean {
    return this.asking !== undefined;
  }

  /** The next line, as the answer to the pending question; returns what to print. */
  answer(line: string): string {
    const asking = this.asking;
    this.asking = undefined;
    this.question = undefined;
    return asking ? asking(line) : '';
  }

  /** The lab's title and steps, numbered, as the steps panel lists them. */
  steps(): string {
    const lab = this.lab;
    const title = `${this.ui('lab.label')}: ${lab.title[this.locale]}`;
    const steps = lab.steps.map((s, i) => indentAfterFirst(`${i + 1}. ${s[this.locale].trim()}`, 3));
    return `${title}\n${lab.summary[this.locale].trim()}\n\n${this.ui('lab.steps')}\n${steps.join('\n')}\n`;
  }

  /** The checks panel as text: each check, whether it passes, and why not when it does not. */
  check(): string {
    const summary: CheckSummary = this.session.check();
    const lines = summary.results.map((r) => {
      const passed = r.status === 'pass';
      const head = `${passed ? '[x]' : '[ ]'} ${r.title[this.locale]}: ${passed ? this.ui('lab.checkPassed') : this.ui('lab.checkFailed')}`;
      if (passed) return head;
      const why = [r.observed[this.locale], r.hop?.[this.locale]].filter(Boolean).join(' — ');
      const quiz = this.lab.checks.find((c) => c.id === r.id)?.quiz;
      return `${head}\n    ${why}${quiz ? `\n    ${this.cli('quizWhere', { id: r.id })}` : ''}`;
    });
    const { percent } = score(summary.results);
    const total =
      summary.total > 0 && summary.passed === summary.total
        ? this.ui('lab.checkAllPassed')
        : this.ui('lab.checkSummary', { passed: summary.passed, total: summary.total, percent });
    return `${this.ui('lab.checks')}\n${lines.join('\n')}\n${total}\n`;
  }

  /** The lab's questions with their choices (by id and number) and the answers given so far. */
  private quizzes() {
    return this.lab.checks.flatMap((c) => (c.quiz ? [{ id: c.id, quiz: c.quiz }] : []));
  }

  /** `lab quiz`: lists the questions; `lab quiz QUESTION CHOICE…` answers one (ids or 1-based numbers). */
  quiz(args: readonly string[]): string {
    const quizzes = this.quizzes();
    if (quizzes.length === 0) return `${this.cli('noQuiz')}\n`;
    const given = this.session.state().quizAnswers;
    if (args.length === 0) {
      const blocks = quizzes.map(({ id, quiz }, i) => {
        const head = `${i + 1}. [${id}] ${quiz.question[this.locale].trim()}${quiz.multiple ? ` ${this.cli('quizMultiple')}` : ''}`;
        const picked = given[id] ?? [];
        const choices = quiz.choices.map(
          (c, j) =>
            `   ${picked.includes(c.id) ? '(*)' : '( )'} ${j + 1}. ${c.id}: ${c.text[this.locale].trim()}`,
        );
        return [head, ...choices].join('\n');
      });
      const first = quizzes[0]!;
      const example = `${first.id} ${first.quiz.choices[0]!.id}`;
      return `${blocks.join('\n\n')}\n\n${this.cli('quizHow', { example })}\n`;
    }
    const [which, ...picks] = args;
    const byNumber = /^\d+$/.test(which!) ? quizzes[Number(which) - 1] : undefined;
    const target = byNumber ?? quizzes.find((q) => q.id === which);
    const id = target?.id ?? which!;
    const choices = picks.map((p) => {
      const n = /^\d+$/.test(p) ? target?.quiz.choices[Number(p) - 1] : undefined;
      return n?.id ?? p;
    });
    try {
      this.session.answer(id, choices);
    } catch (e) {
      return `lab: ${e instanceof Error ? e.message : String(e)}\n`;
    }
    const verdict = this.session.check().results.find((r) => r.id === id);
    return `${this.cli('quizRecorded', { id, verdict: verdict?.observed[this.locale] ?? '' })}\n`;
  }

  hint(): string {
    const hints = this.lab.hints;
    if (hints.length === 0) return `${this.cli('noHints')}\n`;
    if (this.hintLevel >= hints.length) return `${this.cli('noMoreHints')}\n`;
    this.hintLevel++;
    const text = hints[this.hintLevel - 1]![this.locale].trim();
    return `${this.ui('lab.hintN', { n: this.hintLevel, total: hints.length })}: ${text}\n`;
  }

  /** Asks first (the browser's dialog); on yes shows the solution and asks whether to run it. */
  solution(): string {
    const { solution } = this.lab;
    if (solution.commands.length === 0 && Object.keys(solution.files).length === 0)
      return `${this.cli('noSolution')}\n`;
    this.ask(`${this.ui('lab.solutionConfirm')} ${this.cli('yesNo')} `, (answer) =>
      isYes(answer) ? this.showSolution() : '',
    );
    return '';
  }

  private ask(question: string, then: (answer: string) => string): void {
    this.question = question;
    this.asking = then;
  }

  private showSolution(): string {
    const { solution } = this.lab;
    const files = Object.keys(solution.files);
    const parts = [this.ui('lab.solutionHeading')];
    if (files.length > 0) parts.push(`${this.ui('lab.solutionFiles')} ${files.join(', ')}`);
    parts.push(...solution.commands.map((c) => `  ${c}`));
    this.ask(`${this.ui('lab.solutionRun')}? ${this.cli('yesNo')} `, (answer) =>
      isYes(answer) ? this.runSolution() : `${this.cli('notRun')}\n`,
    );
    return `${parts.join('\n')}\n`;
  }

  /** As the browser's "Run the solution" button: the files saved as from the editor, then each command typed. */
  private runSolution(): string {
    const { solution } = this.lab;
    for (const [path, content] of Object.entries(solution.files)) this.session.writeFile(path, content);
    let out = '';
    for (const line of solution.commands) {
      const r: ExecOutput = this.session.exec(line);
      out += `${r.prompt.replace(/\s*$/, ' ')}${line}\n${r.stdout}${r.stderr}`;
    }
    return out;
  }

  /** Runs a `lab …` line; returns what to print. */
  command(line: string): string {
    const [, sub = 'help', ...args] = line.trim().split(/\s+/);
    switch (sub) {
      case 'quiz':
        return this.quiz(args);
      case 'steps':
        return this.steps();
      case 'check':
        return this.check();
      case 'hint':
        return this.hint();
      case 'solution':
        return this.solution();
      case 'help':
      case '--help':
        return `${this.cli('usage')}\n`;
      default:
        return `${this.cli('unknown', { sub })}\n`;
    }
  }

  /** The grade report the browser downloads, as JSON text. */
  report(learner: string | undefined, submittedAt: string, pickedByHand: boolean): string {
    const report = this.session.report(this.locale, submittedAt, learner) as { lab: { seed?: number } };
    // A variant picked with --variant was not drawn by a seed: the report says so by naming none.
    if (pickedByHand) delete report.lab.seed;
    return `${JSON.stringify(report, null, 2)}\n`;
  }

  reportWritten(file: string): string {
    return `${this.cli('reportWritten', { file })}\n`;
  }
}

function indentAfterFirst(text: string, width: number): string {
  const pad = ' '.repeat(width);
  return text
    .split('\n')
    .map((l, i) => (i === 0 || l === '' ? l : `${pad}${l}`))
    .join('\n');
}

import { z } from 'astro/zod';
import en from './en.json' with { type: 'json' };

const key = (description: string) => z.string().min(1).meta({ description });

/**
 * Course UI strings, added to Starlight's i18n schema. Every key is required, so a key missing
 * from `pt-BR.json` or `en.json` fails the build. Keys are flat and dotted.
 */
export const uiStrings = z
  .object({
    'objectives.heading': key('Heading of the objectives box shown at the top of every chapter.'),
    'selfcheck.check': key('Button of a self-check question that checks the chosen answer.'),
    'selfcheck.choose': key('Shown when the learner presses the check button with no answer chosen.'),
    'selfcheck.correct': key('Start of the feedback for a right answer, before the explanation.'),
    'selfcheck.incorrect': key('Start of the feedback for a wrong answer, before the explanation.'),
    'selfcheck.explanations': key('Summary of the disclosure that lists why each option is right or wrong.'),
    'glossary.definition': key('Label for a glossary term definition.'),
    'glossary.saidInPortuguese': key('Label for how Brazilian Portuguese speakers say a term.'),
    'glossary.example': key('Label for the example sentence of a glossary term.'),
    'glossary.chapters': key('Label for the list of chapters where a glossary term is used.'),
    'glossary.expansion': key('Label for what an abbreviation stands for.'),
    'glossary.filterLabel': key('Label of the glossary filter input.'),
    'glossary.filterHelp': key('Help under the glossary filter: what it matches and that Escape clears it.'),
    'glossary.countAll': key('Announced when the glossary filter is empty; {count} is a number.'),
    'glossary.countNone': key('Announced when no glossary term matches; {query} is what was typed.'),
    'glossary.countOne': key('Announced when exactly one glossary term matches.'),
    'glossary.countMany': key('Announced when several glossary terms match; {count} is a number.'),
    'glossary.lettersLabel': key('Accessible name of the glossary letter links.'),
    'lab.label': key("Label before a lab's title, e.g. 'Lab: Sandbox'."),
    'lab.noscript': key('Shown in place of the interactive lab until it loads (or without JavaScript).'),
    'lab.loading': key("Status while the lab's engine starts."),
    'lab.ready': key('Status once the terminal accepts input.'),
    'lab.restored': key('Status after saved progress was restored.'),
    'lab.steps': key("Heading of the lab's steps."),
    'lab.files': key("Accessible name of the editor's file tabs."),
    'lab.startFiles': key('Heading of the read-only starting files shown before the editor loads.'),
    'lab.editorLabel': key('Accessible name of the editor; {file} is the file name.'),
    'lab.editorLoading': key('Shown while the code editor loads.'),
    'lab.editorHelp': key('Keyboard help under the editor.'),
    'lab.terminal': key('Accessible name of the terminal region.'),
    'lab.terminalInput': key("Accessible name of the terminal's input (xterm prompt label)."),
    'lab.terminalHelp': key('Keyboard help under the terminal.'),
    'lab.tooMuchOutput': key('xterm screen-reader message when output is too long to announce.'),
    'lab.toolbar': key("Accessible name of the lab's toolbar."),
    'lab.checks': key('Heading of the checks panel.'),
    'lab.checkButton': key("Button that runs the lab's checks."),
    'lab.checkSummary': key(
      'Checks summary; {passed} and {total} are numbers, {percent} the whole percent passed (rounded down).',
    ),
    'lab.checkProgress': key(
      'Accessible name of the progress bar of the checks (how much of the lab passes).',
    ),
    'lab.checkAllPassed': key('Announced when every check passes.'),
    'lab.checkPassed': key('State of a passing check.'),
    'lab.checkFailed': key('State of a check that does not pass yet.'),
    'lab.checkPending': key('State of a check before the first evaluation.'),
    'lab.checkHidden': key('Title shown for a hidden check.'),
    'lab.hintButton': key('Button that shows the next hint.'),
    'lab.hints': key('Heading of the hints shown so far.'),
    'lab.hintN': key('Label of a hint; {n} and {total} are numbers.'),
    'lab.noMoreHints': key('Shown when every hint is already visible.'),
    'lab.resetButton': key('Button that resets the lab.'),
    'lab.resetConfirm': key('Confirmation question before a reset.'),
    'lab.resetDone': key('Status after a reset.'),
    'lab.newFaultButton': key(
      'Button of a lab with variants (the capstone) that draws another fault and resets the lab.',
    ),
    'lab.newFaultConfirm': key('Confirmation question before drawing another fault.'),
    'lab.newFaultDone': key('Status after another fault was drawn.'),
    'lab.variantRevealed': key(
      'Shown once every check of a lab with variants passes; {title} names the fault.',
    ),
    'lab.solutionButton': key('Button that shows the solution.'),
    'lab.solutionConfirm': key('Confirmation question before showing the solution.'),
    'lab.solutionHeading': key('Heading of the solution panel.'),
    'lab.solutionFiles': key("Text before the solution's files."),
    'lab.solutionRun': key('Button that applies the solution in the terminal.'),
    'lab.confirmYes': key('Confirm button of a dialog.'),
    'lab.confirmNo': key('Cancel button of a dialog.'),
    'lab.reportButton': key('Button that downloads the grade report.'),
    'lab.reportFailed': key('Status when the grade report cannot be built; {reason} is technical.'),
    'lab.learnerLabel': key('Label of the optional name field that goes into the grade report.'),
    'lab.learnerHelp': key('Help under the name field: optional, where it is kept, where it goes.'),
    'lab.exportButton': key('Button that exports all saved progress.'),
    'lab.importButton': key('Button that imports saved progress from a file.'),
    'lab.imported': key('Status after an import; {count} is a number.'),
    'lab.importFailed': key('Status when an import fails; {reason} is technical.'),
    'lab.maximize': key('Toggle button that makes the lab fill the window.'),
    'lab.resize': key('Accessible name of the handle between editor and terminal.'),
    'lab.storageOff': key('Notice when progress cannot be saved.'),
    'lab.savedOld': key('Notice for a saved record from an older version; {reason} is technical.'),
    'lab.savedCorrupt': key('Notice for an unreadable saved record; {reason} is technical.'),
    'lab.migrate': key('Button that recovers old saved progress.'),
    'lab.startOver': key('Button that discards saved progress.'),
    'lab.migrated': key('Status after a recovery.'),
    'lab.engineFailed': key('Status when the engine cannot start; {reason} is technical.'),
    'lab.hostWorker': key('Which engine runs the lab: the Web Worker.'),
    'lab.hostWebContainer': key('Which engine runs the lab: the WebContainer.'),
    'lab.useWebContainer': key('Button that moves the lab into a WebContainer.'),
    'lab.useWorker': key('Button that moves the lab back to the browser engine.'),
    'lab.wcBooting': key('Progress while a WebContainer boots; {percent} is a number.'),
    'lab.wcFailed': key('Notice when the WebContainer cannot start; {reason} is technical.'),
    'lab.wcReady': key('Status once the lab runs in a WebContainer.'),
    'lab.watchdogRestarting': key('Status while a stuck engine is replaced.'),
    'lab.watchdogRestarted': key('Status once the engine was restarted by the watchdog.'),
    'lab.watchdogTerminal': key('Printed in the terminal after the watchdog restarted the engine.'),
    'lab.conflict': key('Notice when another tab saved this lab while this tab had unsaved work.'),
    'lab.conflictTheirs': key('Button: load the version saved by the other tab.'),
    'lab.conflictMine': key("Button: keep this tab's version and save it over the other."),
    'lab.otherTabUpdated': key('Status when this tab took the work another tab saved.'),
    'lab.quotaFull': key("Notice when the browser's storage quota is full."),
    'lab.exportNow': key('Button in the quota notice: export progress to a file now.'),
    'lab.checkCount': key('Live count inside the Check button; {passed} and {total} are numbers.'),
    'lab.helpGroup': key('Accessible name of the toolbar group with the hint and solution buttons.'),
    'lab.viewGroup': key('Accessible name of the toolbar group with the Network and full-window buttons.'),
    'lab.startOverGroup': key('Accessible name of the toolbar group with Reset, New fault and the menus.'),
    'lab.toolsButton': key(
      'Button that opens the menu with the report, file download, export, import and learner name.',
    ),
    'lab.shortcutsButton': key('Accessible name of the ? button that lists the keyboard shortcuts.'),
    'lab.shortcutsTitle': key('Heading of the keyboard shortcuts popover.'),
    'lab.downloadFile': key('Menu item: download the file open in the editor.'),
    'lab.downloadNothing': key('Status when there is no file open to download.'),
    'lab.views': key('Accessible name of the phone layout tabs (Steps, Editor, Terminal, Network).'),
    'lab.editor': key('Phone layout tab that shows the editor.'),
    'lab.keyCheck': key('Shortcut list: what Alt+Shift+C does.'),
    'lab.keyHint': key('Shortcut list: what Alt+Shift+H does.'),
    'lab.keyMaximize': key('Shortcut list: what Alt+Shift+M does.'),
    'lab.keyLeave': key('Shortcut list: what Esc does outside the terminal and editor.'),
    'lab.keyComplete': key('Shortcut list: what Tab does in the terminal.'),
    'lab.keyHistory': key('Shortcut list: what Up and Down do in the terminal.'),
    'lab.keyInterrupt': key('Shortcut list: what Ctrl+C does in the terminal.'),
    'lab.keyClear': key('Shortcut list: what Ctrl+L does in the terminal.'),
    'lab.keyLeaveTerminal': key('Shortcut list: what Esc then Tab does in the terminal.'),
    'lab.keyEditorTab': key('Shortcut list: what Ctrl+M does in the editor.'),
    'lab.keyNextError': key('Shortcut list: what F8 does in the editor.'),
  })
  .extend(networkViewStrings());

export type UiStringKey = keyof z.infer<typeof uiStrings>;

/**
 * The Network view's strings (`net.*`, used by src/visual through its `format`/`translator`): every key
 * en.json defines is required in every locale, like the keys above.
 */
function networkViewStrings() {
  type NetKey = Extract<keyof typeof en, `net.${string}`>;
  const keys = Object.keys(en).filter((k): k is NetKey => k.startsWith('net.'));
  return Object.fromEntries(
    keys.map((k) => [k, key('Network view (src/visual): diagram, packet walk and matrix.')]),
  ) as Record<NetKey, ReturnType<typeof key>>;
}

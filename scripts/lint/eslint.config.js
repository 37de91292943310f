// ESLint flat config for the page-side scripts (src/**/js/*.js).
// Run from the checkout's root with `--config scripts/lint/eslint.config.js`: with an explicit
// --config the `files` pattern is relative to the working directory, while the imports below
// resolve from this folder's node_modules (installed by scripts/install.sh).
import js from "@eslint/js";
import globals from "globals";

// A file whose code is one function, `function (el) { … }`: Runtime.callFunctionOn and
// call_expression() evaluate it in parentheses, but parsed as a script an anonymous
// function is a syntax error. Leading comments are allowed; the code must end with "}".
const FUNCTION_FILE =
  /^(?:\s|\/\/[^\n]*\n|\/\*[\s\S]*?\*\/)*(?:async\s+)?function\b[\s\S]*\}\s*;?\s*$/;

// Files wrapped by preprocess, so postprocess can shift their columns back.
const wrappedFiles = new Set();

// Lints a function file the way it is used: as "(" + text + "\n)". The "(" shifts
// columns on line 1 only (by convention a comment line), and postprocess shifts them
// back. Fixes are not offered (no supportsAutofix), so no offsets need mapping.
const functionFiles = {
  meta: { name: "a11y/function-files" },
  preprocess(text, filename) {
    if (!FUNCTION_FILE.test(text)) return [text];
    wrappedFiles.add(filename);
    return [`(${text}\n)`];
  },
  postprocess([messages], filename) {
    if (!wrappedFiles.delete(filename)) return messages;
    return messages.map((message) => ({
      ...message,
      column: message.line === 1 ? message.column - 1 : message.column,
      endColumn:
        message.endLine === 1 && message.endColumn ? message.endColumn - 1 : message.endColumn,
    }));
  },
};

export default [
  {
    files: ["src/**/js/*.js"],
    ...js.configs.recommended,
    processor: functionFiles,
    languageOptions: {
      ecmaVersion: "latest",
      sourceType: "script",
      // Only what a page offers; page globals such as `axe` are declared per file
      // with a `/* global axe */` comment.
      globals: { ...globals.browser },
    },
    linterOptions: {
      reportUnusedDisableDirectives: "error",
    },
  },
];

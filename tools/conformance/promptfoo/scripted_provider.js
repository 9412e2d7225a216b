// SPDX-License-Identifier: MIT
// A promptfoo JavaScript provider that answers from a script, like scripted_provider.py:
// the answer follows "SAY:" in the prompt; config.wrong lists answers it gets wrong.
class ScriptedProvider {
  constructor(options) {
    this.providerId = options.id || 'scripted-js';
    this.config = options.config || {};
  }
  id() {
    return this.providerId;
  }
  async callApi(prompt) {
    let said = prompt.split('SAY:')[1].trim().split(/\s+/)[0];
    if ((this.config.wrong || []).includes(said)) said = 'unsure';
    return { output: `The answer is ${said}.`, tokenUsage: { total: 3, prompt: 2, completion: 1 } };
  }
}
module.exports = ScriptedProvider;

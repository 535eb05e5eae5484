import { makeAgentFolder } from '../../helpers/agent-fixture.js';

/**
 * A scripted agent with the goal augment: the evaluator is played by the script (its system
 * prompt starts "You are the goal evaluator"), so every run judges the same way, offline.
 * `/goal do three steps` is met on the third turn; `/goal deploy` asks a form in its second.
 */
export const GOAL_SCRIPT = `rules:
  - system: "goal evaluator"
    match: "<goal_condition>\\\\s*do three steps"
    replies:
      - text: '{"met": false, "reason": "Step one is done; two and three remain."}'
      - text: '{"met": false, "reason": "Step three remains."}'
      - text: '{"met": true, "reason": "All three steps are done."}'
  - system: "goal evaluator"
    match: "<goal_condition>\\\\s*deploy"
    replies:
      - text: '{"met": false, "reason": "Built, not deployed yet."}'
      - text: '{"met": true, "reason": "Deployed to staging."}'
  - system: "goal evaluator"
    steps:
      - text: '{"met": false, "reason": "Nothing is done yet."}'
  - match: "Keep working toward it: do three steps"
    replies:
      - text: "Did step two."
      - text: "Did step three."
  - match: "Keep working toward it: deploy"
    steps:
      - toolCalls:
          - name: ask_user
            args:
              prompt: "Where to?"
              fields:
                - { name: env, question: "Which environment?", type: choice, options: [staging, production] }
      - text: "Deployed."
  - match: "^do three steps"
    steps:
      - text: "Did step one."
  - match: "^deploy"
    steps:
      - text: "Built the image."
  - match: ".*"
    steps:
      - text: "Slowly working."
`;

export function scriptedGoalFolder(goalConfig?: string): string {
  return makeAgentFolder({
    augments: ['turnControl', 'questions', 'goal'],
    engine: 'engine:\n  provider: scripted\n  model: goal\n  script: ./script.yaml\n',
    files: { 'script.yaml': GOAL_SCRIPT, ...(goalConfig ? { 'augments/goal/augment.yaml': `type: goal\nconfig:\n${goalConfig}` } : {}) },
  });
}

// The sample request the Getting Started walkthrough opens: a small, valid body of POST /v1/messages that
// shows what Promptwright does with one (the check, the count, a streamed reply and a tool call).

export const SAMPLE_NAME = 'sample.prompt.yaml';

export const SAMPLE_REQUEST = `# A message request: the body of POST /v1/messages, checked as you type.
# The status bar counts its input tokens; "Send Request" (the run button above) streams the reply.
model: model-opus-4-7
max_tokens: 1024
system: You are a concise travel assistant.
tools:
  - name: get_weather
    description: The current weather in a city.
    input_schema:
      type: object
      properties:
        city: { type: string, description: The city, e.g. Paris }
      required: [city]
messages:
  - role: user
    content: Should I pack an umbrella for Paris tomorrow?
`;

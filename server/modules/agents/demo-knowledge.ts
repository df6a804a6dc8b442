/**
 * Parley's own demo client's knowledge base (issue 4 §2): what the marketing site says — services
 * and prices (common/marketing/services.ts, the same list the Services page shows), the template
 * plans, business hours and how to reach us — so a newcomer can ask the website widget right
 * after `npm start`.
 */
import { SERVICES } from '../../../common/marketing/services';
import type { ParsedEntry } from './knowledge-format';

const serviceEntries: ParsedEntry[] = SERVICES.map((s) => {
  const name = s.title.toLowerCase();
  return {
    questions: [`What is ${s.title}?`, `How much does ${name} cost?`, `Tell me about ${name}`, `Price of ${name}`, `Do you offer ${name}?`],
    answer: `${s.title}: ${s.description} Includes ${s.features.join(', ').toLowerCase()}. Price: ${s.price}.`,
    link: null,
  };
});

export const DEMO_KNOWLEDGE: readonly ParsedEntry[] = [
  {
    questions: ['What services do you offer?', 'What do you do?', 'What can Parley do for my business?', 'What products do you have?', 'Which services are available?'],
    answer: `Parley runs AI agents that answer your customers on WhatsApp, Instagram, Messenger, website chat and your own platform, hands off to your team when unsure and triggers n8n / Zapier workflows. Services: ${SERVICES.map((s) => `${s.title} (${s.price})`).join('; ')}.`,
    link: '/services',
  },
  ...serviceEntries,
  {
    questions: ['How much does it cost?', 'What are your prices?', 'What are your plans?', 'Pricing please', 'How much is a plan per month?', 'Is it expensive?'],
    answer:
      'Ready-made templates: Instagram DM AI $299/month, Facebook Lead AI $399/month, WhatsApp Business AI $499/month. Services start at $79/month (analytics) and $99/month (AI chat automation); setup is a one-time $499.',
    link: '/client-signup',
  },
  {
    questions: ['What is the Instagram DM AI plan?', 'Instagram automation price', 'Can you answer my Instagram DMs?', 'Instagram plan'],
    answer: 'Instagram DM AI ($299/month) answers Instagram direct messages and qualifies leads automatically: instant DM replies, lead qualification and handoff to your team.',
    link: '/client-signup',
  },
  {
    questions: ['What is the Facebook Lead AI plan?', 'Facebook Messenger automation price', 'Can you follow up Facebook leads?', 'Facebook plan'],
    answer: 'Facebook Lead AI ($399/month) follows up on Facebook leads and Messenger conversations within seconds, with CRM-ready summaries.',
    link: '/client-signup',
  },
  {
    questions: ['What is the WhatsApp Business AI plan?', 'WhatsApp automation price', 'Can you answer WhatsApp messages?', 'WhatsApp plan'],
    answer: 'WhatsApp Business AI ($499/month) is a WhatsApp assistant for orders, bookings and support questions, with business hours rules.',
    link: '/client-signup',
  },
  {
    questions: ['What are your opening hours?', 'When are you open?', 'What time do you close?', 'Are you open on weekends?', 'Are you open on Sunday?', 'Business hours?'],
    answer: 'Our team is available Monday to Friday 9:00 AM – 6:00 PM and Saturday 10:00 AM – 4:00 PM; closed on Sunday. The AI agent answers around the clock.',
    link: '/contact',
  },
  {
    questions: ['How can I contact you?', 'How do I reach your team?', 'Can I book a demo?', 'I want a demo', 'How do I get in touch?'],
    answer: 'Create an account and we will reach out within 24 hours to set up your demo — or ask me here and I can pass you to a person.',
    link: '/contact',
  },
  {
    questions: ['How do I get started?', 'How do I sign up?', 'How long does setup take?', 'What happens after I sign up?', 'How do I go live?'],
    answer: 'Pick a template on the sign-up page. We contact you within 24 hours, set up your template, you connect your social accounts, and you go live.',
    link: '/client-signup',
  },
  {
    questions: ['Is there a free trial?', 'Can I try it for free?', 'Do you have a trial?', 'Free trial length?'],
    answer: 'Yes — every plan starts with a 14-day free trial.',
    link: '/client-signup',
  },
  {
    questions: ['Which channels do you support?', 'Do you work with WhatsApp?', 'Do you support Instagram and Messenger?', 'Can I connect my website?', 'Can I use my own platform?'],
    answer: 'WhatsApp, Instagram, Facebook Messenger, a website chat widget (one script tag) and your own platform through a signed API, all in one inbox.',
    link: '/features',
  },
  {
    questions: ['What happens when the AI does not know the answer?', 'Can a human take over?', 'Does the AI hand off to people?', 'What if the bot is wrong?'],
    answer: 'When the agent is not confident enough — or a customer asks for a person — it hands the conversation to your team, notifies them and stays quiet until you hand it back.',
    link: '/features',
  },
  {
    questions: ['Do you integrate with n8n?', 'Do you work with Zapier?', 'Can I trigger workflows?', 'Automation integrations?'],
    answer: 'Yes: conversations can trigger n8n workflows and Zapier zaps, with execution history and live run messages.',
    link: '/services',
  },
  {
    questions: ['What is your uptime?', 'Is the service reliable?', 'Uptime guarantee?'],
    answer: 'We target 99.9% uptime.',
    link: null,
  },
];

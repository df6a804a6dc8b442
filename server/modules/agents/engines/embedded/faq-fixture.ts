/** A small shop's FAQ for the embedded engine's tests: 8 entries, 5 example questions each, plus held-out questions. */
import type { KnowledgeEntry } from '../answer-engine';

export const SHOP_FAQ: readonly KnowledgeEntry[] = [
  {
    id: 'hours',
    questions: [
      'What are your opening hours?',
      'When are you open?',
      'What time do you close today?',
      'Are you open on Sundays?',
      'What time does the store open in the morning?',
    ],
    answer: 'We are open Monday to Saturday from 9:00 to 19:00 and on Sundays from 10:00 to 16:00.',
    link: null,
  },
  {
    id: 'prices',
    questions: [
      'How much does it cost?',
      'What are your prices?',
      'How expensive is the premium plan?',
      'Do you have a price list?',
      'What is the price of the basic package?',
    ],
    answer: 'The basic package is 19 € a month and premium 49 € a month.',
    link: 'https://shop.example/pricing',
  },
  {
    id: 'refunds',
    questions: [
      'How do I get a refund?',
      'Can I return an item and get my money back?',
      'What is your refund policy?',
      'I want my money back for a broken product',
      'How long does a refund take?',
    ],
    answer: 'You can return any item within 30 days for a full refund; the money is back on your card within 5 working days.',
    link: 'https://shop.example/returns',
  },
  {
    id: 'shipping',
    questions: [
      'How long does delivery take?',
      'Do you ship internationally?',
      'When will my parcel arrive?',
      'How much is shipping?',
      'Which courier do you use for deliveries?',
    ],
    answer: 'Orders ship within one working day; delivery takes 2–4 days in the EU and is free above 50 €.',
    link: null,
  },
  {
    id: 'password',
    questions: [
      'I forgot my password',
      'How do I reset my password?',
      'I cannot log in to my account',
      'How can I change my password?',
      'The login page says my password is wrong',
    ],
    answer: 'Use "Forgot password" on the sign-in page; we e-mail you a link to choose a new one.',
    link: 'https://shop.example/reset',
  },
  {
    id: 'payment',
    questions: [
      'Which payment methods do you accept?',
      'Can I pay with PayPal?',
      'Do you take credit cards?',
      'Is it possible to pay by bank transfer?',
      'Can I pay in installments?',
    ],
    answer: 'We accept Visa, Mastercard, PayPal and bank transfer.',
    link: null,
  },
  {
    id: 'cancel',
    questions: [
      'How do I cancel my subscription?',
      'I want to cancel my order',
      'Can I stop my membership?',
      'How can I unsubscribe from the plan?',
      'Please cancel my account subscription',
    ],
    answer: 'You can cancel any time under Account → Subscription; an order can be cancelled until it ships.',
    link: null,
  },
  {
    id: 'location',
    questions: [
      'Where is your shop?',
      'What is your address?',
      'How do I find your store?',
      'Where are you located?',
      'Is there parking near the store?',
    ],
    answer: 'We are at 12 Market Street, next to the central station; there is a car park behind the building.',
    link: 'https://shop.example/visit',
  },
];

/** Paraphrases not among the training questions, with the entry that answers them. */
export const SHOP_PARAPHRASES: readonly { question: string; entryId: string }[] = [
  { question: 'until what time are you open on saturday', entryId: 'hours' },
  { question: 'when do you open tomorrow', entryId: 'hours' },
  { question: 'how much is the premium plan per month', entryId: 'prices' },
  { question: 'what does the basic package cost', entryId: 'prices' },
  { question: 'can I get my money back if I return it', entryId: 'refunds' },
  { question: 'how many days until I receive my refund', entryId: 'refunds' },
  { question: 'do you deliver to other countries', entryId: 'shipping' },
  { question: 'how long will shipping take for my order', entryId: 'shipping' },
  { question: 'I need to reset the password of my account', entryId: 'password' },
  { question: 'I forgot my login password', entryId: 'password' },
  { question: 'can I pay by credit card', entryId: 'payment' },
  { question: 'do you accept paypal payments', entryId: 'payment' },
  { question: 'how can I cancel my membership', entryId: 'cancel' },
  { question: 'I would like to cancel the subscription', entryId: 'cancel' },
  { question: 'what is the address of your store', entryId: 'location' },
  { question: 'where can I find your shop', entryId: 'location' },
];

/** Questions no entry answers. */
export const OFF_TOPIC = ['purple elephant quantum banana', 'Who won the football world cup in 1998?', 'What is the capital of Australia?', 'Tell me a joke about cats'] as const;

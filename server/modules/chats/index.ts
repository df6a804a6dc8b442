/** The chats module: the team's internal chat (threads between staff and client users) and presence. */
export { ChatsService } from './chats.service';

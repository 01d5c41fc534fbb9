"""The default category vocabulary. Sensitive categories stay out of an app's grant unless named."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Category:
    slug: str
    description: str
    sensitive: bool = False


DEFAULT_CATEGORIES: tuple[Category, ...] = (
    Category("personal", "Who the person is: name, age, background, identity, life events."),
    Category("preferences", "Likes, dislikes, tastes and how they want things done."),
    Category("work", "Job, employer, role, colleagues, workplace routines."),
    Category("projects", "Things they are building or working on, goals and progress."),
    Category("relationships", "Family, partner, children, friends and other people in their life."),
    Category("food", "Diet, cooking, favourite dishes, restaurants, allergies to food."),
    Category("travel", "Trips, places visited or planned, transport and destinations."),
    Category("technology", "Tools, programming languages, devices and software they use."),
    Category("education", "School, studies, courses, degrees and things they are learning."),
    Category("hobbies", "Sports, games, music, reading and other pastimes."),
    Category("home", "Where they live, their house, pets, household and neighbourhood."),
    Category("schedule", "Appointments, routines, deadlines and time commitments."),
    Category("goals", "Plans, ambitions and resolutions for the future."),
    Category("health", "Medical conditions, medication, fitness, mental health.", sensitive=True),
    Category("finance", "Money, income, debts, investments, banking.", sensitive=True),
    Category("religion", "Faith, beliefs and religious practice.", sensitive=True),
    Category("politics", "Political views, party membership, activism.", sensitive=True),
    Category("sexuality", "Sexual orientation, sex life, gender identity.", sensitive=True),
    Category("legal", "Legal matters, disputes, immigration status, records.", sensitive=True),
)

SENSITIVE = frozenset(c.slug for c in DEFAULT_CATEGORIES if c.sensitive)
DEFAULT_SLUGS = frozenset(c.slug for c in DEFAULT_CATEGORIES)
